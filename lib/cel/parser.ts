/**
 * A CEL parser (cel-spec syntax, cel-go conventions): tokens, precedence, literals and escapes as in CEL.g4; macros
 * (`has`, `all`, `exists`, `exists_one`, `map`, `filter`, the two-variable comprehensions, `optMap`, `optFlatMap`,
 * `cel.bind`) are expanded here into comprehensions exactly as cel-go expands them, so cost accounting matches. Syntax
 * errors use cel-go's (ANTLR's) wording for the common cases.
 */
import { ACCUMULATOR, SourceInfo, type CallExpr, type Expr, type MapEntry, type StructField } from './ast.js';
import { UInt, MAX_INT64, MIN_INT64, MAX_UINT64, type Value } from './values.js';
import { CEL_RESERVED_WORDS } from './escaping.js';

export interface ParseIssue {
  /** A UTF-16 offset in the expression, or -1 for an issue with no location (cel-go's NoLocation). */
  offset: number;
  message: string;
}

/** cel-go's default ExpressionSizeCodePointLimit: longer expressions are refused before they are lexed. */
export const EXPRESSION_SIZE_CODE_POINT_LIMIT = 100_000;

export interface ParseResult {
  expr?: Expr;
  source: SourceInfo;
  issues: ParseIssue[];
}

type TokKind =
  | 'EOF'
  | 'INT'
  | 'UINT'
  | 'FLOAT'
  | 'STRING'
  | 'BYTES'
  | 'IDENT'
  | 'ESC_IDENT'
  | 'true'
  | 'false'
  | 'null'
  | 'in'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '&&'
  | '||'
  | '!'
  | '?'
  | ':'
  | '.'
  | ','
  | '['
  | ']'
  | '('
  | ')'
  | '{'
  | '}';

interface Token {
  kind: TokKind;
  text: string;
  start: number;
  end: number;
  /** Decoded string/bytes value, or identifier name for ESC_IDENT. */
  value?: string | Uint8Array;
}

/** A `\u`/`\U` escape of a surrogate or beyond U+10FFFF: cel-go rejects the literal, not the token. */
class InvalidCodePoint extends Error {}

/** A syntax error, caught within this parser: a plain object, since a stack trace per bad character costs too much. */
class SyntaxError {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const RESERVED = new Set(CEL_RESERVED_WORDS);

const PRIMARY_EXPECTED = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const MAP_ENTRY_EXPECTED =
  "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const LIST_ELEM_EXPECTED =
  "{'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

const PUNCT2 = ['==', '!=', '<=', '>=', '&&', '||'];
const PRIMARY_START = new Set<string>(['[', '{', '(', '.', '-', '!', 'true', 'false', 'null', 'FLOAT', 'INT', 'UINT', 'STRING', 'BYTES', 'IDENT']);
const PUNCT1 = '+-*/%<>!?:.,[](){}';

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
function isHex(c: string | undefined): boolean {
  return c !== undefined && /[0-9a-fA-F]/.test(c);
}
function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z_]/.test(c);
}
function isIdentPart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

class Lexer {
  private pos = 0;
  /** Token recognition errors; the offending text is skipped, as ANTLR's lexer does. */
  readonly errors: ParseIssue[] = [];
  private readonly reported = new Set<string>();
  /** Literal errors (reported as the parser's, after parsing). */
  readonly literalErrors: ParseIssue[] = [];
  constructor(private readonly src: string) {}

  mark(): number {
    return this.pos;
  }

  reset(pos: number): void {
    this.pos = pos;
  }

  next(): Token {
    for (;;) {
      try {
        return this.scan();
      } catch (e) {
        if (!(e instanceof SyntaxError)) throw e;
        // the parser may re-lex after backtracking: report each error once
        const key = `${e.offset}:${e.message}`;
        if (!this.reported.has(key)) {
          this.reported.add(key);
          this.errors.push({ offset: e.offset, message: e.message });
        }
        if (this.pos <= e.offset) this.pos = e.offset + 1;
      }
    }
  }

  private scan(): Token {
    const s = this.src;
    for (;;) {
      while (this.pos < s.length && /[ \t\n\r\f]/.test(s[this.pos])) this.pos++;
      if (s.startsWith('//', this.pos)) {
        while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
        continue;
      }
      break;
    }
    const start = this.pos;
    if (start >= s.length) return { kind: 'EOF', text: '<EOF>', start, end: start };
    const c = s[start];

    // string and bytes literals, with optional b/B and r/R prefixes (bytes first: br'...')
    let p = start;
    let bytes = false;
    let raw = false;
    if ((c === 'b' || c === 'B') && /['"]/.test(s[p + 1] ?? '')) {
      bytes = true;
      p++;
    } else if ((c === 'b' || c === 'B') && /[rR]/.test(s[p + 1] ?? '') && /['"]/.test(s[p + 2] ?? '')) {
      bytes = true;
      raw = true;
      p += 2;
    } else if ((c === 'r' || c === 'R') && /['"]/.test(s[p + 1] ?? '')) {
      raw = true;
      p++;
    }
    if (s[p] === '"' || s[p] === "'") return this.readString(start, p, bytes, raw);

    if (isDigit(c) || (c === '.' && isDigit(s[start + 1]))) return this.readNumber(start);
    if (isIdentStart(c)) {
      while (isIdentPart(s[this.pos])) this.pos++;
      const text = s.slice(start, this.pos);
      const kind: TokKind = text === 'true' || text === 'false' || text === 'null' || text === 'in' ? text : 'IDENT';
      return { kind, text, start, end: this.pos };
    }
    if (c === '`') {
      let q = start + 1;
      while (q < s.length && /[A-Za-z0-9_.\-/ ]/.test(s[q])) q++;
      if (s[q] === '`' && q > start + 1) {
        this.pos = q + 1;
        return { kind: 'ESC_IDENT', text: s.slice(start, q + 1), start, end: this.pos, value: s.slice(start + 1, q) };
      }
      this.pos = Math.min(q + 1, s.length);
      throw new SyntaxError(start, `Syntax error: token recognition error at: '${s.slice(start, q + 1)}'`);
    }
    const two = s.slice(start, start + 2);
    if (PUNCT2.includes(two)) {
      this.pos += 2;
      return { kind: two as TokKind, text: two, start, end: this.pos };
    }
    if (PUNCT1.includes(c)) {
      this.pos++;
      return { kind: c as TokKind, text: c, start, end: this.pos };
    }
    const bad = c === '|' || c === '&' || c === '=' ? s.slice(start, start + 2) : String.fromCodePoint(s.codePointAt(start)!);
    this.pos = start + bad.length;
    throw new SyntaxError(start, `Syntax error: token recognition error at: '${bad}'`);
  }

  private readNumber(start: number): Token {
    const s = this.src;
    let p = start;
    if (s[p] === '0' && (s[p + 1] === 'x' || s[p + 1] === 'X') && isHex(s[p + 2])) {
      p += 2;
      while (isHex(s[p])) p++;
      if (s[p] === 'u' || s[p] === 'U') {
        this.pos = p + 1;
        return { kind: 'UINT', text: s.slice(start, p + 1), start, end: this.pos };
      }
      this.pos = p;
      return { kind: 'INT', text: s.slice(start, p), start, end: p };
    }
    while (isDigit(s[p])) p++;
    let isFloat = false;
    if (s[p] === '.' && isDigit(s[p + 1])) {
      isFloat = true;
      p++;
      while (isDigit(s[p])) p++;
    }
    if ((s[p] === 'e' || s[p] === 'E') && (isDigit(s[p + 1]) || ((s[p + 1] === '+' || s[p + 1] === '-') && isDigit(s[p + 2])))) {
      isFloat = true;
      p += 2;
      while (isDigit(s[p])) p++;
    }
    if (!isFloat && (s[p] === 'u' || s[p] === 'U')) {
      this.pos = p + 1;
      return { kind: 'UINT', text: s.slice(start, p + 1), start, end: this.pos };
    }
    this.pos = p;
    return { kind: isFloat ? 'FLOAT' : 'INT', text: s.slice(start, p), start, end: p };
  }

  private readString(start: number, quotePos: number, bytes: boolean, raw: boolean): Token {
    const s = this.src;
    const q = s[quotePos];
    const triple = s[quotePos + 1] === q && s[quotePos + 2] === q;
    const delim = triple ? q.repeat(3) : q;
    let p = quotePos + delim.length;
    const bodyStart = p;
    let bodyEnd = -1;
    while (p < s.length) {
      if (s.startsWith(delim, p)) {
        bodyEnd = p;
        break;
      }
      if (!triple && (s[p] === '\n' || s[p] === '\r')) break;
      if (s[p] === '\\') p++;
      p++;
    }
    if (bodyEnd < 0) {
      // an unterminated literal: ANTLR reports the opening quote(s) and resumes after them
      this.pos = quotePos + delim.length;
      throw new SyntaxError(start, `Syntax error: token recognition error at: '${s.slice(start, this.pos)}'`);
    }
    const body = s.slice(bodyStart, bodyEnd);
    this.pos = bodyEnd + delim.length;
    const text = s.slice(start, this.pos);
    if (raw) return { kind: bytes ? 'BYTES' : 'STRING', text, start, end: this.pos, value: bytes ? utf8(body) : body };
    let decoded: string | Uint8Array | number;
    try {
      decoded = decodeEscapes(body, bytes);
    } catch (e) {
      if (!(e instanceof InvalidCodePoint)) throw e;
      this.pos = bodyEnd + delim.length;
      this.literalErrors.push({ offset: start, message: 'invalid unicode code point' });
      return { kind: bytes ? 'BYTES' : 'STRING', text: s.slice(start, this.pos), start, end: this.pos, value: '' };
    }
    if (typeof decoded === 'number') {
      // ANTLR reports the text up to the bad escape, then the closing quote separately
      this.pos = bodyStart + decoded;
      throw new SyntaxError(start, `Syntax error: token recognition error at: '${s.slice(start, bodyStart + decoded)}'`);
    }
    return { kind: bytes ? 'BYTES' : 'STRING', text, start, end: this.pos, value: decoded };
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '`': '`',
  '?': '?',
};

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/**
 * Decodes CEL escapes. Strings: \x and octal escapes are code points; bytes: they are raw bytes and \u is not
 * allowed. Returns the offset (in `body`) just past a bad escape when one is found.
 */
function decodeEscapes(body: string, bytes: boolean): string | Uint8Array | number {
  const out: number[] = [];
  let str = '';
  const pushText = (t: string): void => {
    if (bytes) out.push(...utf8(t));
    else str += t;
  };
  for (let i = 0; i < body.length; ) {
    const c = body[i];
    if (c !== '\\') {
      const cp = body.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      pushText(ch);
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) return i + 1;
    if (SIMPLE_ESCAPES[e] !== undefined) {
      pushText(SIMPLE_ESCAPES[e]);
      i += 2;
      continue;
    }
    if (e === 'x' || e === 'X') {
      const h = body.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) return Math.min(body.length, i + 2 + h.replace(/[^0-9a-fA-F].*$/, '').length + 1);
      const n = parseInt(h, 16);
      if (bytes) out.push(n);
      else str += String.fromCodePoint(n);
      i += 4;
      continue;
    }
    if (e === 'u' || e === 'U') {
      if (bytes) return i + 2;
      const len = e === 'u' ? 4 : 8;
      const h = body.slice(i + 2, i + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(h)) return i + 2;
      const n = parseInt(h, 16);
      if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) throw new InvalidCodePoint();
      str += String.fromCodePoint(n);
      i += 2 + len;
      continue;
    }
    if (e >= '0' && e <= '3') {
      const o = body.slice(i + 1, i + 4);
      if (!/^[0-3][0-7]{2}$/.test(o)) return i + 2;
      const n = parseInt(o, 8);
      if (bytes) out.push(n);
      else str += String.fromCodePoint(n);
      i += 4;
      continue;
    }
    return i + 2;
  }
  return bytes ? Uint8Array.from(out) : str;
}

export interface ParserOptions {
  /** Maximum nesting depth of the expression (cel-go's default is 250). */
  maxRecursionDepth?: number;
  /** Backtick-quoted field names (`` a.`b-c` ``; cel-go's EnableIdentEscapeSyntax, not in Kubernetes 1.32). */
  enableIdentEscapeSyntax?: boolean;
}

/** Parses a CEL expression. */
export function parse(text: string, opts: ParserOptions = {}): ParseResult {
  const source = new SourceInfo(text);
  const size = codePoints(text);
  if (size > EXPRESSION_SIZE_CODE_POINT_LIMIT) {
    return { source, issues: [{ offset: -1, message: `expression code point size exceeds limit: size: ${size}, limit ${EXPRESSION_SIZE_CODE_POINT_LIMIT}` }] };
  }
  const p = new Parser(text, source, opts.maxRecursionDepth ?? 250, opts.enableIdentEscapeSyntax ?? false);
  let expr: Expr | undefined;
  const issues: ParseIssue[] = [];
  try {
    expr = p.parseTop();
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    issues.push({ offset: e.offset, message: e.message });
    p.drain();
  }
  issues.push(...p.lexerErrors());
  if (issues.length) return { source, issues: issues.sort((a, b) => a.offset - b.offset) };
  return { expr, source, issues: [] };
}

function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

class Parser {
  private readonly lexer: Lexer;
  private tok!: Token;
  private nextId = 1;
  private depth = 0;
  readonly issues: ParseIssue[] = [];

  constructor(
    text: string,
    private readonly source: SourceInfo,
    private readonly maxDepth: number,
    private readonly escapedIdents: boolean,
  ) {
    this.lexer = new Lexer(text);
  }

  /** Errors ANTLR would report while recovering (reported even when parsing succeeds). */
  readonly issuesFromRecovery: ParseIssue[] = [];

  /** Lexes the rest of the input so that its token recognition errors are reported too. */
  drain(): void {
    let guard = 0;
    while (this.tok?.kind !== 'EOF' && guard++ < 100000) this.tok = this.lexer.next();
  }

  lexerErrors(): ParseIssue[] {
    return [...this.lexer.errors, ...this.lexer.literalErrors, ...this.issuesFromRecovery];
  }

  private id(offset: number): number {
    const id = this.nextId++;
    this.source.positions.set(id, offset);
    return id;
  }

  private advance(): Token {
    const t = this.tok;
    this.tok = this.lexer.next();
    return t;
  }

  private at(kind: TokKind): boolean {
    return this.tok.kind === kind;
  }

  private accept(kind: TokKind): Token | undefined {
    return this.at(kind) ? this.advance() : undefined;
  }

  private expect(kind: TokKind, expected = `'${kind}'`): Token {
    if (this.at(kind)) return this.advance();
    throw new SyntaxError(this.tok.start, `Syntax error: mismatched input '${this.tok.text}' expecting ${expected}`);
  }

  parseTop(): Expr {
    this.tok = this.lexer.next();
    const e = this.expr();
    if (!this.at('EOF')) {
      // ANTLR calls a stray token followed by the end "extraneous" (it can recover by deleting it)
      const mark = this.lexer.mark();
      const errs = this.lexer.errors.length;
      const after = this.lexer.next();
      this.lexer.reset(mark);
      this.lexer.errors.length = errs;
      const kind = after.kind === 'EOF' ? 'extraneous' : 'mismatched';
      throw new SyntaxError(this.tok.start, `Syntax error: ${kind} input '${this.tok.text}' expecting <EOF>`);
    }
    return e;
  }

  private enter(): void {
    if (++this.depth > this.maxDepth) {
      throw new SyntaxError(this.tok.start, `expression recursion limit exceeded: ${this.maxDepth}`);
    }
  }

  private expr(): Expr {
    this.enter();
    try {
      const cond = this.or();
      const q = this.accept('?');
      if (!q) return cond;
      const t = this.or();
      this.expect(':');
      const f = this.expr();
      return this.call(q.start, '_?_:_', [cond, t, f]);
    } finally {
      this.depth--;
    }
  }

  private call(offset: number, fn: string, args: Expr[], target?: Expr): CallExpr {
    return { kind: 'call', id: this.id(offset), fn, args, ...(target ? { target } : {}) };
  }

  private or(): Expr {
    let left = this.and();
    while (this.at('||')) {
      const op = this.advance();
      left = this.call(op.start, '_||_', [left, this.and()]);
    }
    return left;
  }

  private and(): Expr {
    let left = this.relation();
    while (this.at('&&')) {
      const op = this.advance();
      left = this.call(op.start, '_&&_', [left, this.relation()]);
    }
    return left;
  }

  private static readonly REL: Partial<Record<TokKind, string>> = {
    '<': '_<_',
    '<=': '_<=_',
    '>': '_>_',
    '>=': '_>=_',
    '==': '_==_',
    '!=': '_!=_',
    in: '@in',
  };

  private relation(): Expr {
    let left = this.addition();
    for (;;) {
      const fn = Parser.REL[this.tok.kind];
      if (!fn) return left;
      const op = this.advance();
      left = this.call(op.start, fn, [left, this.addition()]);
    }
  }

  private addition(): Expr {
    let left = this.multiplication();
    while (this.at('+') || this.at('-')) {
      const op = this.advance();
      left = this.call(op.start, op.kind === '+' ? '_+_' : '_-_', [left, this.multiplication()]);
    }
    return left;
  }

  private multiplication(): Expr {
    let left = this.unary();
    while (this.at('*') || this.at('/') || this.at('%')) {
      const op = this.advance();
      const fn = op.kind === '*' ? '_*_' : op.kind === '/' ? '_/_' : '_%_';
      left = this.call(op.start, fn, [left, this.unary()]);
    }
    return left;
  }

  private unary(): Expr {
    if (this.at('!')) {
      const ops: Token[] = [];
      while (this.at('!')) ops.push(this.advance());
      const operand = this.member();
      if (ops.length % 2 === 0) return operand;
      return this.call(ops[0].start, '!_', [operand]);
    }
    if (this.at('-')) {
      const ops: Token[] = [];
      while (this.at('-')) ops.push(this.advance());
      let operand: Expr;
      if (this.at('INT') || this.at('FLOAT')) {
        // a `-` right before a number is the literal's sign (CEL.g4: literal : sign=MINUS? NUM_INT ...)
        const sign = ops.pop()!;
        const t = this.advance();
        operand = this.member({ kind: 'const', id: this.id(sign.start), value: this.numberValue(t, true, sign.start) });
      } else {
        operand = this.member();
      }
      if (ops.length % 2 === 0) return operand;
      return this.call(ops[0].start, '-_', [operand]);
    }
    return this.member();
  }

  /** member := primary ('.' ident ('(' args ')')? | '.?' ident | '[' '?'? expr ']')* */
  private member(primary?: Expr): Expr {
    let e = primary ?? this.primary();
    for (;;) {
      if (this.at('.')) {
        const dot = this.advance();
        const optional = !!this.accept('?');
        let name: string;
        let escaped = false;
        if (this.at('IDENT') || this.at('in') || this.at('true') || this.at('false') || this.at('null')) {
          if (this.at('in')) throw new SyntaxError(this.tok.start, `Syntax error: no viable alternative at input '.${this.tok.text}'`);
          // ANTLR reports a literal keyword after the dot as a mismatched token (cel-go's parser tests)
          if (!this.at('IDENT')) throw new SyntaxError(this.tok.start, `Syntax error: mismatched input '${this.tok.text}' expecting IDENTIFIER`);
          name = this.advance().text;
        } else if (this.at('ESC_IDENT')) {
          // without the option the selection still parses, but is rejected (cel-go's "unsupported syntax")
          if (!this.escapedIdents && !this.issuesFromRecovery.some((x) => x.offset === this.tok.start)) {
            this.issuesFromRecovery.push({ offset: this.tok.start, message: "unsupported syntax: '`'" });
          }
          name = this.advance().value as string;
          escaped = true;
        } else {
          throw new SyntaxError(this.tok.kind === 'EOF' ? dot.start : this.tok.start, `Syntax error: no viable alternative at input '.${this.tok.kind === 'EOF' ? '' : this.tok.text}'`);
        }
        if (!optional && !escaped && this.at('(')) {
          const open = this.advance();
          const args = this.args();
          e = this.macroOrCall(open.start, name, args, e);
          continue;
        }
        if (optional) {
          const fieldLit: Expr = { kind: 'const', id: this.id(dot.start), value: name };
          e = this.call(dot.start, '_?._', [e, fieldLit]);
        } else {
          e = { kind: 'select', id: this.id(dot.start), operand: e, field: name, testOnly: false };
        }
        continue;
      }
      if (this.at('[')) {
        const open = this.advance();
        const optional = !!this.accept('?');
        const index = this.expr();
        this.expect(']');
        e = this.call(open.start, optional ? '_[?_]' : '_[_]', [e, index]);
        continue;
      }
      return e;
    }
  }

  private args(): Expr[] {
    const args: Expr[] = [];
    if (this.accept(')')) return args;
    for (;;) {
      args.push(this.expr());
      if (this.accept(')')) return args;
      this.expect(',', "{')', ','}");
    }
  }

  private numberValue(t: Token, negative: boolean, at: number): Value {
    if (t.kind === 'FLOAT') {
      const v = Number(t.text);
      if (!Number.isFinite(v)) throw new SyntaxError(at, 'invalid double literal');
      return negative ? -v : v;
    }
    if (t.kind === 'UINT') {
      const digits = t.text.slice(0, -1);
      const v = BigInt(digits);
      if (v > MAX_UINT64) throw new SyntaxError(at, 'invalid uint literal');
      return new UInt(v);
    }
    let v = BigInt(t.text);
    if (negative) v = -v;
    if (v > MAX_INT64 || v < MIN_INT64) throw new SyntaxError(at, 'invalid int literal');
    return v;
  }

  private primary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'INT':
      case 'UINT':
      case 'FLOAT':
        this.advance();
        return { kind: 'const', id: this.id(t.start), value: this.numberValue(t, false, t.start) };
      case 'STRING':
      case 'BYTES':
        this.advance();
        return { kind: 'const', id: this.id(t.start), value: t.value as string | Uint8Array };
      case 'true':
      case 'false':
        this.advance();
        return { kind: 'const', id: this.id(t.start), value: t.kind === 'true' };
      case 'null':
        this.advance();
        return { kind: 'const', id: this.id(t.start), value: null };
      case '(': {
        this.advance();
        const e = this.expr();
        this.expect(')');
        return e;
      }
      case '[':
        return this.list();
      case '{':
        return this.map();
      case '.':
      case 'IDENT':
        return this.identOrCall();
      default: {
        // a single stray token before a valid operand is "extraneous" (ANTLR deletes it and goes on)
        const mark = this.lexer.mark();
        const errs = this.lexer.errors.length;
        const after = this.lexer.next();
        if (t.kind !== 'EOF' && PRIMARY_START.has(after.kind)) {
          this.issuesFromRecovery.push({ offset: t.start, message: `Syntax error: extraneous input '${t.text}' expecting ${PRIMARY_EXPECTED}` });
          this.tok = after;
          return this.primary();
        }
        this.lexer.reset(mark);
        this.lexer.errors.length = errs;
        throw new SyntaxError(t.start, `Syntax error: mismatched input '${t.text}' expecting ${PRIMARY_EXPECTED}`);
      }
    }
  }

  private identOrCall(): Expr {
    const leadingDot = this.accept('.');
    if (!this.at('IDENT')) {
      throw new SyntaxError(this.tok.start, `Syntax error: no viable alternative at input '.${this.tok.kind === 'EOF' ? '' : this.tok.text}'`);
    }
    const first = this.advance();
    const prefix = leadingDot ? '.' : '';
    if (RESERVED.has(first.text)) throw new SyntaxError(first.start, `reserved identifier: ${first.text}`);
    if (this.at('(')) {
      const open = this.advance();
      const args = this.args();
      return this.macroOrCall(open.start, prefix + first.text, args);
    }
    // message construction: a.b.C{...}
    const names = [first.text];
    const save = { pos: this.lexer.mark(), tok: this.tok };
    while (this.at('.')) {
      this.advance();
      if (!this.at('IDENT')) break;
      names.push(this.advance().text);
    }
    if (this.at('{')) {
      const open = this.advance();
      return this.struct(open.start, prefix + names.join('.'));
    }
    // not a message: rewind to just after the first identifier
    this.lexer.reset(save.pos);
    this.tok = save.tok;
    return { kind: 'ident', id: this.id(leadingDot ? leadingDot.start : first.start), name: prefix + first.text };
  }

  private struct(open: number, typeName: string): Expr {
    const id = this.id(open);
    const fields: StructField[] = [];
    if (!this.accept('}')) {
      for (;;) {
        const optional = !!this.accept('?');
        let name: string;
        if (this.at('IDENT')) name = this.advance().text;
        else if (this.at('ESC_IDENT')) name = this.advance().value as string;
        else throw new SyntaxError(this.tok.start, `Syntax error: mismatched input '${this.tok.text}' expecting {'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}`);
        const colon = this.expect(':');
        const value = this.expr();
        fields.push({ id: this.id(colon.start), name, value, optional });
        if (this.accept('}')) break;
        this.expect(',', "{'}', ','}");
        if (this.accept('}')) break;
      }
    }
    return { kind: 'struct', id, typeName, fields };
  }

  private list(): Expr {
    const open = this.advance();
    const id = this.id(open.start);
    const elements: Expr[] = [];
    const optionalIndices: number[] = [];
    if (!this.accept(']')) {
      for (;;) {
        if (this.accept('?')) optionalIndices.push(elements.length);
        if (this.at(']') || this.at(',')) throw new SyntaxError(this.tok.start, `Syntax error: mismatched input '${this.tok.text}' expecting ${PRIMARY_EXPECTED}`);
        elements.push(this.expr());
        if (this.accept(']')) break;
        this.expect(',', "{']', ','}");
        if (this.accept(']')) break;
        if (this.at('EOF')) throw new SyntaxError(this.tok.start, `Syntax error: mismatched input '<EOF>' expecting ${LIST_ELEM_EXPECTED}`);
      }
    }
    return { kind: 'list', id, elements, optionalIndices };
  }

  private map(): Expr {
    const open = this.advance();
    const id = this.id(open.start);
    const entries: MapEntry[] = [];
    if (this.at('EOF')) throw new SyntaxError(this.tok.start, `Syntax error: mismatched input '<EOF>' expecting ${MAP_ENTRY_EXPECTED}`);
    if (!this.accept('}')) {
      for (;;) {
        const optional = !!this.accept('?');
        const key = this.expr();
        const colon = this.expect(':');
        const value = this.expr();
        entries.push({ id: this.id(colon.start), key, value, optional });
        if (this.accept('}')) break;
        this.expect(',', "{'}', ','}");
        if (this.accept('}')) break;
      }
    }
    return { kind: 'map', id, entries };
  }

  // ---- macros (cel-go parser/macro.go, ext/comprehensions.go, optional library) ----

  private macroOrCall(open: number, name: string, args: Expr[], target?: Expr): Expr {
    if (!target) {
      if (name === 'has' && args.length === 1) {
        const arg = args[0];
        if (arg.kind !== 'select') throw new SyntaxError(this.source.offsetOf(arg.id), 'invalid argument to has() macro');
        return { kind: 'select', id: this.id(open), operand: arg.operand, field: arg.field, testOnly: true };
      }
      return this.call(open, name, args);
    }
    const n = args.length;
    if (n === 2) {
      switch (name) {
        case 'all':
          return this.quantifier(open, 'all', target, args);
        case 'exists':
          return this.quantifier(open, 'exists', target, args);
        case 'exists_one':
          return this.quantifier(open, 'exists_one', target, args);
        case 'map':
          return this.mapMacro(open, target, args[0], undefined, args[1]);
        case 'filter':
          return this.filterMacro(open, target, args);
        case 'optMap':
          return this.optMap(open, target, args, false);
        case 'optFlatMap':
          return this.optMap(open, target, args, true);
        default:
          break;
      }
    }
    if (n === 3) {
      switch (name) {
        case 'map':
          return this.mapMacro(open, target, args[0], args[1], args[2]);
        case 'all':
        case 'exists':
        case 'existsOne':
        case 'exists_one':
          return this.quantifier2(open, name === 'exists_one' ? 'existsOne' : name, target, args);
        case 'transformList':
        case 'transformMap':
        case 'transformMapEntry':
          return this.transform(open, name, target, args[0], args[1], undefined, args[2]);
        case 'bind':
          if (target.kind === 'ident' && target.name === 'cel') return this.bind(open, args);
          break;
        default:
          break;
      }
    }
    if (n === 4) {
      switch (name) {
        case 'transformList':
        case 'transformMap':
        case 'transformMapEntry':
          return this.transform(open, name, target, args[0], args[1], args[2], args[3]);
        default:
          break;
      }
    }
    return this.call(open, name, args, target);
  }

  private ident(offset: number, name: string): Expr {
    return { kind: 'ident', id: this.id(offset), name };
  }

  private lit(offset: number, value: Value): Expr {
    return { kind: 'const', id: this.id(offset), value };
  }

  private simpleName(e: Expr, message: string): string {
    if (e.kind !== 'ident') throw new SyntaxError(this.source.offsetOf(e.id), message);
    return e.name;
  }

  private checkAccu(e: Expr, name: string): void {
    if (name === ACCUMULATOR) throw new SyntaxError(this.source.offsetOf(e.id), 'iteration variable overwrites accumulator variable');
  }

  private quantifier(open: number, kind: 'all' | 'exists' | 'exists_one', target: Expr, args: Expr[]): Expr {
    const v = this.simpleName(args[0], 'argument must be a simple name');
    this.checkAccu(args[0], v);
    return this.quantifierBody(open, kind === 'exists_one' ? 'existsOne' : kind, target, v, undefined, args[1]);
  }

  private quantifier2(open: number, kind: string, target: Expr, args: Expr[]): Expr {
    const v1 = this.simpleName(args[0], 'argument must be a simple name');
    const v2 = this.simpleName(args[1], 'argument must be a simple name');
    this.checkAccu(args[0], v1);
    this.checkAccu(args[1], v2);
    if (v1 === v2) throw new SyntaxError(this.source.offsetOf(args[1].id), 'duplicate variable name: ' + v1);
    return this.quantifierBody(open, kind, target, v1, v2, args[2]);
  }

  private quantifierBody(open: number, kind: string, target: Expr, v1: string, v2: string | undefined, pred: Expr): Expr {
    const accu = (): Expr => this.ident(open, ACCUMULATOR);
    let init: Expr;
    let cond: Expr;
    let step: Expr;
    let result: Expr;
    if (kind === 'all') {
      init = this.lit(open, true);
      cond = this.call(open, '@not_strictly_false', [accu()]);
      step = this.call(open, '_&&_', [accu(), pred]);
      result = accu();
    } else if (kind === 'exists') {
      init = this.lit(open, false);
      cond = this.call(open, '@not_strictly_false', [this.call(open, '!_', [accu()])]);
      step = this.call(open, '_||_', [accu(), pred]);
      result = accu();
    } else {
      init = this.lit(open, 0n);
      cond = this.lit(open, true);
      step = this.call(open, '_?_:_', [pred, this.call(open, '_+_', [accu(), this.lit(open, 1n)]), accu()]);
      result = this.call(open, '_==_', [accu(), this.lit(open, 1n)]);
    }
    return {
      kind: 'comprehension',
      id: this.id(open),
      iterVar: v1,
      ...(v2 !== undefined ? { iterVar2: v2 } : {}),
      iterRange: target,
      accuVar: ACCUMULATOR,
      accuInit: init,
      loopCondition: cond,
      loopStep: step,
      result,
    };
  }

  private mapMacro(open: number, target: Expr, varExpr: Expr, filter: Expr | undefined, transform: Expr): Expr {
    const v = this.simpleName(varExpr, 'argument is not an identifier');
    this.checkAccu(varExpr, v);
    let step: Expr = this.appendStep(open, () => transform);
    if (filter) step = this.call(open, '_?_:_', [filter, step, this.ident(open, ACCUMULATOR)]);
    return this.accumulate(open, v, undefined, target, () => this.listLit(open), () => step);
  }

  private filterMacro(open: number, target: Expr, args: Expr[]): Expr {
    const v = this.simpleName(args[0], 'argument is not an identifier');
    this.checkAccu(args[0], v);
    const append = this.appendStep(open, () => this.ident(open, v));
    return this.accumulate(
      open,
      v,
      undefined,
      target,
      () => this.listLit(open),
      () => this.call(open, '_?_:_', [args[1], append, this.ident(open, ACCUMULATOR)]),
    );
  }

  private transform(open: number, name: string, target: Expr, a: Expr, b: Expr, filter: Expr | undefined, t: Expr): Expr {
    const v1 = this.simpleName(a, 'argument must be a simple name');
    const v2 = this.simpleName(b, 'argument must be a simple name');
    this.checkAccu(a, v1);
    this.checkAccu(b, v2);
    if (v1 === v2) throw new SyntaxError(this.source.offsetOf(b.id), 'duplicate variable name: ' + v1);
    const accu = (): Expr => this.ident(open, ACCUMULATOR);
    let step: Expr;
    let init: Expr;
    if (name === 'transformList') {
      init = this.listLit(open);
      step = this.appendStep(open, () => t);
    } else if (name === 'transformMap') {
      init = { kind: 'map', id: this.id(open), entries: [] };
      step = this.call(open, 'cel.@mapInsert', [accu(), this.ident(open, v1), t]);
    } else {
      init = { kind: 'map', id: this.id(open), entries: [] };
      step = this.call(open, 'cel.@mapInsert', [accu(), t]);
    }
    if (filter) step = this.call(open, '_?_:_', [filter, step, accu()]);
    return this.accumulate(open, v1, v2, target, () => init, () => step);
  }

  /** A list literal with no element or one (made after the list's own id, as the macros number them). */
  private listLit(open: number, element?: () => Expr): Expr {
    const id = this.id(open);
    return { kind: 'list', id, elements: element ? [element()] : [], optionalIndices: [] };
  }

  /** `@result + [element]`: the step of the list-building macros. */
  private appendStep(open: number, element: () => Expr): Expr {
    return this.call(open, '_+_', [this.ident(open, ACCUMULATOR), this.listLit(open, element)]);
  }

  /**
   * The comprehension of `map`, `filter` and the `transform*` macros: over every element of `iterRange`, accumulating
   * into `@result`. `accuInit` and `loopStep` are made in field order, so ids are numbered as cel-go numbers them.
   */
  private accumulate(
    open: number,
    iterVar: string,
    iterVar2: string | undefined,
    iterRange: Expr,
    accuInit: () => Expr,
    loopStep: () => Expr,
  ): Expr {
    return {
      kind: 'comprehension',
      id: this.id(open),
      iterVar,
      ...(iterVar2 !== undefined ? { iterVar2 } : {}),
      iterRange,
      accuVar: ACCUMULATOR,
      accuInit: accuInit(),
      loopCondition: this.lit(open, true),
      loopStep: loopStep(),
      result: this.ident(open, ACCUMULATOR),
    };
  }

  /** `x.optMap(v, e)` → `x.hasValue() ? optional.of(cel.bind(v, x.value(), e)) : optional.none()`. */
  private optMap(open: number, target: Expr, args: Expr[], flat: boolean): Expr {
    const name = flat ? 'optFlatMap' : 'optMap';
    if (args[0].kind !== 'ident') throw new SyntaxError(this.source.offsetOf(args[0].id), `${name}() variable name must be a simple identifier`);
    const v = args[0].name;
    const bound = this.bindComprehension(
      open,
      v,
      () => this.call(open, 'value', [], cloneExpr(target, (o) => this.id(o), this.source)),
      args[1],
    );
    const optNs = (): Expr => this.ident(open, 'optional');
    return this.call(open, '_?_:_', [
      this.call(open, 'hasValue', [], target),
      flat ? bound : this.call(open, 'of', [bound], optNs()),
      this.call(open, 'none', [], optNs()),
    ]);
  }

  /** `cel.bind(v, init, e)`. */
  private bind(open: number, args: Expr[]): Expr {
    const v = this.simpleName(args[0], 'cel.bind() variable names must be simple identifiers');
    return this.bindComprehension(open, v, () => args[1], args[2]);
  }

  /** The comprehension `cel.bind` expands to: `v` bound once to `accuInit` (made after the empty range), then `result`. */
  private bindComprehension(open: number, v: string, accuInit: () => Expr, result: Expr): Expr {
    return {
      kind: 'comprehension',
      id: this.id(open),
      iterVar: '#unused',
      iterRange: this.listLit(open),
      accuVar: v,
      accuInit: accuInit(),
      loopCondition: this.lit(open, false),
      loopStep: this.ident(open, v),
      result,
    };
  }
}

/** Deep-copies an expression with fresh ids at the same positions. */
function cloneExpr(e: Expr, newId: (offset: number) => number, src: SourceInfo): Expr {
  const id = newId(src.offsetOf(e.id));
  const c = (x: Expr): Expr => cloneExpr(x, newId, src);
  switch (e.kind) {
    case 'const':
      return { ...e, id };
    case 'ident':
      return { ...e, id };
    case 'select':
      return { ...e, id, operand: c(e.operand) };
    case 'call':
      return { ...e, id, args: e.args.map(c), ...(e.target ? { target: c(e.target) } : {}) };
    case 'list':
      return { ...e, id, elements: e.elements.map(c) };
    case 'map':
      return { ...e, id, entries: e.entries.map((en) => ({ ...en, id: newId(src.offsetOf(en.id)), key: c(en.key), value: c(en.value) })) };
    case 'struct':
      return { ...e, id, fields: e.fields.map((f) => ({ ...f, id: newId(src.offsetOf(f.id)), value: c(f.value) })) };
    case 'comprehension':
      return {
        ...e,
        id,
        iterRange: c(e.iterRange),
        accuInit: c(e.accuInit),
        loopCondition: c(e.loopCondition),
        loopStep: c(e.loopStep),
        result: c(e.result),
      };
  }
}
