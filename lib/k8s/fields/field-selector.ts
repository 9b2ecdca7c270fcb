import { goCompare } from '../../go/strings.js';
import { FieldSelectorError } from './field-selector-error.js';

export interface FieldRequirement {
  readonly field: string;
  /** `==` is recorded as `=`, as fields.Requirement does. */
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** A field selector: the AND of its requirements; a missing field reads as ''. */
export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  matches(fields: Record<string, string>): boolean {
    return this.requirements.every((r) => {
      const actual = Object.hasOwn(fields, r.field) ? fields[r.field] : '';
      return r.operator === '=' ? actual === r.value : actual !== r.value;
    });
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  /** The value the selector requires `field` to equal (first such term), as RequiresExactMatch. */
  exactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }
}

/** Splits on commas not escaped by a backslash; the escapes stay in the terms. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    if (escaped) escaped = false;
    else if (text[i] === '\\') escaped = true;
    else if (text[i] === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** fields.UnescapeValue: `\\`, `\,` and `\=` are the only escapes; bare `,` and `=` are refused. */
function unescapeValue(raw: string): string {
  let out = '';
  let escaped = false;
  for (const c of raw) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v: its code point number.
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (escaped) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** The first `!=`, `==` or `=` (tried in that order at each position) splits field from value. */
function parseTerm(text: string, term: string): FieldRequirement {
  for (let i = 0; i < term.length; i++) {
    const op = ['!=', '==', '='].find((o) => term.startsWith(o, i));
    if (op) {
      return { field: term.slice(0, i), operator: op === '!=' ? '!=' : '=', value: unescapeValue(term.slice(i + op.length)) };
    }
  }
  throw new FieldSelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
}

/** fields.ParseSelector: `f=v`, `f==v`, `f!=v`, comma-separated; terms are handled in sorted order. */
export function parseFieldSelector(text: string): FieldSelector {
  const terms = text === '' ? [] : splitTerms(text).sort(goCompare);
  return new FieldSelector(terms.filter((t) => t !== '').map((t) => parseTerm(text, t)));
}
