/**
 * The texts of Go's encoding/json errors, so that messages about a webhook's answer kube cannot decode (admission and
 * conversion webhooks alike) read as kube-apiserver's.
 */
import { goQuote } from './go-values.js';

/** How encoding/json names a JSON value's type in an UnmarshalTypeError. */
export function jsonValueType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** `json: cannot unmarshal <value> into Go struct field <Struct>.<path> of type <type>`. */
export function unmarshalFieldError(value: unknown, struct: string, path: string, type: string): string {
  return `json: cannot unmarshal ${jsonValueType(value)} into Go struct field ${struct}.${path} of type ${type}`;
}

/** `json: cannot unmarshal <value> into Go value of type <type>`. */
export function unmarshalValueError(value: unknown, type: string): string {
  return `json: cannot unmarshal ${jsonValueType(value)} into Go value of type ${type}`;
}

/** Go's error for a text JSON.parse refused: the syntax error its scanner finds first. */
export function goJsonParseError(text: string): string {
  return goJsonSyntaxError(text) ?? 'unexpected end of JSON input';
}

/**
 * Go's encoding/json syntax check (checkValid): undefined for valid JSON, else the error Go reports
 * (`invalid character 'x' looking for beginning of value`, `unexpected end of JSON input`).
 */
export function goJsonSyntaxError(text: string): string | undefined {
  const s = new Scanner(text);
  try {
    s.skipSpace();
    s.value();
    s.skipSpace();
    if (s.pos < text.length) s.fail('after top-level value');
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxFailure) return err.message;
    throw err;
  }
}

class SyntaxFailure extends Error {}

/** Go's encoding/json maxNestingDepth. */
const maxNestingDepth = 10_000;

/** strconv.Quote of one character, in single quotes as Go's quoteChar writes it (`'\''`, `'"'`, `'\x01'`). */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  return `'${goQuote(c).slice(1, -1)}'`;
}

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(context: string): never {
    if (this.pos >= this.text.length) throw new SyntaxFailure('unexpected end of JSON input');
    throw new SyntaxFailure(`invalid character ${quoteChar(this.text[this.pos])} ${context}`);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && ' \t\r\n'.includes(this.text[this.pos])) this.pos++;
  }

  private peek(): string {
    return this.text[this.pos] ?? '';
  }

  /**
   * One JSON value, without recursion: the containers open around the current position are an explicit stack, at
   * most Go's maxNestingDepth deep (deeper, Go's scanner stops with `exceeded max depth`).
   */
  value(): void {
    const open: string[] = [];
    for (;;) {
      const c = this.peek();
      if (c === '{' || c === '[') {
        if (open.length >= maxNestingDepth) this.fail('exceeded max depth');
        this.pos++;
        this.skipSpace();
        const close = c === '{' ? '}' : ']';
        if (this.peek() === close) {
          this.pos++;
        } else {
          open.push(close);
          if (close === '}') this.key();
          continue;
        }
      } else {
        this.scalar();
      }
      // A value is complete: close the containers it completes, up to the next element.
      for (;;) {
        if (open.length === 0) return;
        this.skipSpace();
        const close = open[open.length - 1]!;
        const next = this.peek();
        if (next === close) {
          this.pos++;
          open.pop();
          continue;
        }
        if (next !== ',') this.fail(close === '}' ? 'after object key:value pair' : 'after array element');
        this.pos++;
        this.skipSpace();
        if (close === '}') this.key();
        break;
      }
    }
  }

  /** An object's key and its colon, up to its value. */
  private key(): void {
    if (this.peek() !== '"') this.fail('looking for beginning of object key string');
    this.string();
    this.skipSpace();
    if (this.peek() !== ':') this.fail('after object key');
    this.pos++;
    this.skipSpace();
  }

  private scalar(): void {
    const c = this.peek();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const literal of ['true', 'false', 'null']) {
      if (c === literal[0]) return this.literal(literal);
    }
    this.fail('looking for beginning of value');
  }

  private literal(word: string): void {
    this.pos++;
    for (let i = 1; i < word.length; i++, this.pos++) {
      if (this.peek() !== word[i]) this.fail(`in literal ${word} (expecting ${quoteChar(word[i])})`);
    }
  }

  private string(): void {
    this.pos++;
    for (;;) {
      const c = this.peek();
      if (c === '') this.fail('in string literal');
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c < ' ') this.fail('in string literal');
      this.pos++;
      if (c !== '\\') continue;
      const e = this.peek();
      if (e === 'u') {
        this.pos++;
        for (let i = 0; i < 4; i++, this.pos++) if (!/[0-9a-fA-F]/.test(this.peek())) this.fail('in \\u hexadecimal character escape');
      } else if ('"\\/bfnrt'.includes(e) && e !== '') this.pos++;
      else this.fail('in string escape code');
    }
  }

  private digits(): number {
    const start = this.pos;
    while (this.peek() >= '0' && this.peek() <= '9') this.pos++;
    return this.pos - start;
  }

  private number(): void {
    if (this.peek() === '-') {
      this.pos++;
      if (!(this.peek() >= '0' && this.peek() <= '9')) this.fail('in numeric literal');
    }
    if (this.peek() === '0') this.pos++;
    else this.digits();
    if (this.peek() === '.') {
      this.pos++;
      if (!this.digits()) this.fail('after decimal point in numeric literal');
    }
    if (this.peek() === 'e' || this.peek() === 'E') {
      this.pos++;
      if (this.peek() === '+' || this.peek() === '-') this.pos++;
      if (!this.digits()) this.fail('in exponent of numeric literal');
    }
  }
}
