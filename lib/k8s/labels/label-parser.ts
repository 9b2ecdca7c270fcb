import { LabelSelectorError } from './label-selector-error.js';
import { goCompare } from '../../go/strings.js';
import { goQuote } from '../../go/go-values.js';
import { tokenize, type Token } from './label-lexer.js';
import { requirementProblem, type LabelOperator, type LabelRequirement } from './label-requirement.js';
import { labelKeyErrors } from './label-validation.js';

const operators: Partial<Record<Token['kind'], LabelOperator>> = {
  in: 'in',
  notin: 'notin',
  '=': '=',
  '==': '==',
  '!=': '!=',
  '>': 'gt',
  '<': 'lt',
};

/** A failure inside one requirement; kube prefixes these, and only these. */
function requirementError(message: string): never {
  throw new LabelSelectorError(`unable to parse requirement: ${message}`);
}

/**
 * labels.Parse's recursive descent over the tokens. Where a value may stand, `in`/`notin` read as identifiers;
 * only the operator position sees them as keywords.
 */
class Parser {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  private raw(): Token {
    return this.tokens[Math.min(this.pos++, this.tokens.length - 1)];
  }

  private static asValue(t: Token): Token {
    return t.kind === 'in' || t.kind === 'notin' ? { kind: 'ident', text: t.text } : t;
  }

  private next(): Token {
    return Parser.asValue(this.raw());
  }

  private peek(): Token {
    return Parser.asValue(this.tokens[Math.min(this.pos, this.tokens.length - 1)]);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const first = this.peek();
      if (first.kind === 'end') return requirements;
      if (first.kind !== 'ident' && first.kind !== '!') {
        throw new LabelSelectorError(`found '${first.text}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.requirement());
      const after = this.next();
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') throw new LabelSelectorError(`found '${after.text}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.kind !== 'ident' && following.kind !== '!') {
        throw new LabelSelectorError(`found '${following.text}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next();
    const negated = t.kind === '!';
    if (negated) t = this.next();
    if (t.kind !== 'ident') requirementError(`found '${t.text}', expected: identifier`);
    const keyErrs = labelKeyErrors(t.text);
    if (keyErrs.length > 0) requirementError(`<nil>: Invalid value: ${goQuote(t.text)}: ${keyErrs.join('; ')}`);
    const key = t.text;
    const upcoming = this.peek().kind;
    if (negated) return checked({ key, operator: '!', values: [] });
    if (upcoming === 'end' || upcoming === ',') return checked({ key, operator: 'exists', values: [] });
    const operator = this.operator();
    const values = operator === 'in' || operator === 'notin' ? this.valueSet() : [this.exactValue()];
    return checked({ key, operator, values });
  }

  private operator(): LabelOperator {
    const t = this.raw();
    return operators[t.kind] ?? requirementError(`found '${t.text}', expected: in, notin, =, ==, !=, gt, lt`);
  }

  /** `(a, b, ...)`; empty items are '' values. The result is sorted and deduplicated, as kube's string set. */
  private valueSet(): string[] {
    const open = this.next();
    if (open.kind !== '(') requirementError(`found '${open.text}' expected: '('`);
    const first = this.peek();
    if (first.kind === ')') {
      this.next();
      return [''];
    }
    if (first.kind !== 'ident' && first.kind !== ',') requirementError(`found '${first.text}', expected: ',', ')' or identifier`);
    const values = new Set<string>();
    for (;;) {
      const t = this.next();
      if (t.kind === 'ident') {
        values.add(t.text);
        const la = this.peek();
        if (la.kind === ')') break;
        if (la.kind !== ',') requirementError(`found '${la.text}', expected: ',' or ')'`);
      } else if (t.kind === ',') {
        if (values.size === 0) values.add('');
        const la = this.peek();
        if (la.kind === ')') {
          values.add('');
          break;
        }
        if (la.kind === ',') {
          this.next();
          values.add('');
        }
      } else {
        requirementError(`found '${t.text}', expected: ',', or identifier`);
      }
    }
    this.next(); // the ')'
    return [...values].sort(goCompare);
  }

  private exactValue(): string {
    const la = this.peek();
    if (la.kind === 'end' || la.kind === ',') return '';
    const t = this.next();
    if (t.kind !== 'ident') requirementError(`found '${t.text}', expected: identifier`);
    return t.text;
  }
}

function checked(r: LabelRequirement): LabelRequirement {
  const problem = requirementProblem(r);
  if (problem !== undefined) requirementError(problem);
  return r;
}

/** The requirements of a label selector string, in source order; throws kube's 400 on invalid input. */
export function parseLabelRequirements(text: string): LabelRequirement[] {
  return new Parser(tokenize(text)).parse();
}
