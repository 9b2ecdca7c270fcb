/**
 * The JSONPath of CRD additionalPrinterColumns, evaluated like k8s.io/client-go/util/jsonpath with missing keys allowed:
 * `.a.b`, `['a.b']`, `.*`, `[*]`, `[0]`, `[-1]`, and filters `[?(@.type=="Ready")]` (==, !=, <, >, <=, >=, or bare existence).
 */

type Literal = string | number | boolean;
type Step =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'index'; index: number }
  | { kind: 'filter'; path: Step[]; op: string; value?: Literal };

export interface JsonPath {
  readonly expression: string;
  /** Every value the path selects, in order; none when a key is missing or evaluation fails (bad index, incomparable types). */
  find(data: unknown): unknown[];
}

const cache = new Map<string, JsonPath>();

/** Parses (once per expression, then cached) a printer-column JSONPath; throws on syntax kube would reject. */
export function compileJsonPath(expression: string): JsonPath {
  let path = cache.get(expression);
  if (!path) {
    const steps = new Parser(expression).parsePath(true);
    path = {
      expression,
      find(data) {
        try {
          return evaluate(steps, [data]);
        } catch (err) {
          if (err instanceof EvalError) return [];
          throw err;
        }
      },
    };
    cache.set(expression, path);
  }
  return path;
}

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  private fail(what: string): never {
    throw new SyntaxError(`unrecognized column definition "${this.text}": ${what} at position ${this.pos}`);
  }

  /** Steps until the end (top level) or until a filter's operator or ')'. */
  parsePath(topLevel: boolean): Step[] {
    const steps: Step[] = [];
    if (this.text[this.pos] === '$' || this.text[this.pos] === '@') this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '.') {
        this.pos++;
        const name = this.readField(topLevel);
        steps.push(name === '*' ? { kind: 'wildcard' } : { kind: 'field', name });
      } else if (c === '[') {
        steps.push(this.readBracket());
      } else if (!topLevel) {
        break;
      } else {
        this.fail(`unexpected ${JSON.stringify(c)}`);
      }
    }
    return steps;
  }

  /** A field name runs to the next terminator; inside a filter the comparison operators and ')' end it too. */
  private readField(topLevel: boolean): string {
    const terminators = topLevel ? '.[] ,$@{}' : '.[] ,$@{}()=!<>';
    let name = '';
    while (this.pos < this.text.length && !terminators.includes(this.text[this.pos])) {
      if (this.text[this.pos] === '\\' && this.pos + 1 < this.text.length) this.pos++;
      name += this.text[this.pos++];
    }
    if (name === '') this.fail('empty field name');
    return name;
  }

  private readBracket(): Step {
    const close = (step: Step): Step => {
      if (this.text[this.pos] !== ']') this.fail("expected ']'");
      this.pos++;
      return step;
    };
    this.pos++;
    const rest = this.text.slice(this.pos);
    if (rest.startsWith('*')) {
      this.pos++;
      return close({ kind: 'wildcard' });
    }
    if (rest.startsWith("'") || rest.startsWith('"')) {
      const value = this.readLiteral();
      if (typeof value !== 'string') this.fail('expected a quoted key');
      return close({ kind: 'field', name: value });
    }
    const index = /^-?\d+/.exec(rest);
    if (index) {
      this.pos += index[0].length;
      return close({ kind: 'index', index: Number(index[0]) });
    }
    if (!rest.startsWith('?(@')) this.fail('unsupported bracket expression');
    this.pos += 2;
    const path = this.parsePath(false);
    const op = /^\s*(==|!=|<=|>=|<|>)\s*/.exec(this.text.slice(this.pos));
    let step: Step = { kind: 'filter', path, op: 'exists' };
    if (op) {
      this.pos += op[0].length;
      step = { kind: 'filter', path, op: op[1], value: this.readLiteral() };
    }
    while (this.text[this.pos] === ' ') this.pos++;
    if (this.text[this.pos] !== ')') this.fail("expected ')'");
    this.pos++;
    return close(step);
  }

  private readLiteral(): Literal {
    const rest = this.text.slice(this.pos);
    const quoted = /^'((?:[^'\\]|\\.)*)'|^"((?:[^"\\]|\\.)*)"/.exec(rest);
    const other = quoted ? null : /^(true|false|-?\d+(\.\d+)?)/.exec(rest);
    const match = quoted ?? other;
    if (!match) this.fail('expected a literal');
    this.pos += match[0].length;
    if (quoted) return (quoted[1] ?? quoted[2]).replace(/\\(.)/g, '$1');
    return match[0] === 'true' || match[0] === 'false' ? match[0] === 'true' : Number(match[0]);
  }
}

/** A failure kube's evaluator reports as an error (and the table convertor shows as an empty cell). */
class EvalError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function evaluate(steps: Step[], input: unknown[]): unknown[] {
  let values = input;
  for (const step of steps) values = values.flatMap((v) => (v === null || v === undefined ? [] : apply(step, v)));
  return values;
}

function apply(step: Step, value: unknown): unknown[] {
  switch (step.kind) {
    case 'field':
      return isObject(value) && Object.hasOwn(value, step.name) ? [value[step.name]] : [];
    case 'wildcard':
      return Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    case 'index': {
      if (!Array.isArray(value)) throw new EvalError('not an array');
      const i = step.index < 0 ? step.index + value.length : step.index;
      if (i < 0 || i >= value.length) throw new EvalError('array index out of bounds');
      return [value[i]];
    }
    case 'filter':
      if (!Array.isArray(value)) throw new EvalError('not an array');
      return value.filter((item) => matches(step, item));
  }
}

function matches(step: Extract<Step, { kind: 'filter' }>, item: unknown): boolean {
  const lefts = evaluate(step.path, [item]);
  if (lefts.length === 0) return false;
  if (lefts.length > 1) throw new EvalError('can only compare one element at a time');
  if (step.op === 'exists') return true;
  const left = lefts[0];
  const right = step.value;
  if (typeof left !== typeof right || (typeof left !== 'string' && typeof left !== 'number' && typeof left !== 'boolean')) {
    throw new EvalError('incompatible types for comparison');
  }
  if (step.op === '==') return left === right;
  if (step.op === '!=') return left !== right;
  if (typeof left === 'boolean') throw new EvalError('invalid type for comparison');
  const [l, r] = [left as string | number, right as string | number];
  return step.op === '<' ? l < r : step.op === '>' ? l > r : step.op === '<=' ? l <= r : l >= r;
}
