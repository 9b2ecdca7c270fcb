/**
 * The syntax errors Go's regexp.Compile (regexp/syntax with the Perl flags, Go 1.23) reports for a pattern, with Go's
 * texts: `error parsing regexp: missing closing ): \`(a\``. kube-apiserver rejects a CRD whose schema has a `pattern`
 * Go cannot compile. The checker follows the parser's scan (groups and Perl flags, classes, escapes, repetition
 * operators); it does not check size limits (nesting deeper than 1000, repeat counts multiplying past 1000).
 */

type Failure = { code: string; expr: string };

class SyntaxFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.code);
  }
}

function fail(code: string, expr: string): never {
  throw new SyntaxFailure({ code, expr });
}

const ERR = {
  invalidCharRange: 'invalid character class range',
  invalidEscape: 'invalid escape sequence',
  invalidNamedCapture: 'invalid named capture',
  invalidPerlOp: 'invalid or unsupported Perl syntax',
  invalidRepeatOp: 'invalid nested repetition operator',
  invalidRepeatSize: 'invalid repeat count',
  missingBracket: 'missing closing ]',
  missingParen: 'missing closing )',
  missingRepeatArgument: 'missing argument to repetition operator',
  trailingBackslash: 'trailing backslash at end of expression',
  unexpectedParen: 'unexpected )',
} as const;

const POSIX_CLASSES = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);

const CATEGORIES = new Set([
  'C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc',
  'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs',
]);

/** Whether Go's unicode tables know `name` (a category, a script, or Any). */
function unicodeTableExists(name: string): boolean {
  if (name === 'Any' || CATEGORIES.has(name)) return true;
  // Go knows scripts by their long names (Greek); JavaScript also accepts the ISO codes (Grek), which we let pass.
  if (!/^[A-Z][A-Za-z_]*$/.test(name)) return false;
  try {
    new RegExp(`\\p{Script=${name}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

function isAlnum(c: string): boolean {
  return /^[0-9A-Za-z]$/.test(c);
}

function isOctal(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '7';
}

function unhex(c: string | undefined): number {
  if (c === undefined) return -1;
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'a' && c <= 'f') return c.charCodeAt(0) - 87;
  if (c >= 'A' && c <= 'F') return c.charCodeAt(0) - 55;
  return -1;
}

/** The first code point of `s` and the rest ('' and '' for an empty string). */
function nextRune(s: string): [string, string] {
  if (s === '') return ['', ''];
  const cp = s.codePointAt(0)!;
  const c = String.fromCodePoint(cp);
  return [c, s.slice(c.length)];
}

/** parseEscape: a single-character escape at the start of `s` (which starts with a backslash); returns the rest. */
function parseEscape(s: string): string {
  let t = s.slice(1);
  if (t === '') fail(ERR.trailingBackslash, '');
  let c: string;
  [c, t] = nextRune(t);
  const invalid = (): never => fail(ERR.invalidEscape, s.slice(0, s.length - t.length));
  if (c >= '1' && c <= '7') {
    // a single non-zero digit is a backreference (unsupported); more digits make an octal escape
    if (!isOctal(t[0])) invalid();
  }
  if (c >= '0' && c <= '7') {
    for (let i = 1; i < 3 && isOctal(t[0]); i++) t = t.slice(1);
    return t;
  }
  switch (c) {
    case 'x': {
      if (t === '') invalid();
      [c, t] = nextRune(t);
      if (c === '{') {
        let digits = 0;
        let value = 0;
        for (;;) {
          if (t === '') invalid();
          [c, t] = nextRune(t);
          if (c === '}') break;
          const v = unhex(c);
          if (v < 0) invalid();
          value = value * 16 + v;
          if (value > 0x10ffff) invalid();
          digits++;
        }
        if (digits === 0) invalid();
        return t;
      }
      const x = unhex(c);
      [c, t] = nextRune(t);
      if (x < 0 || unhex(c) < 0) invalid();
      return t;
    }
    case 'a':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'v':
      return t;
    default:
      // escaped punctuation is always itself
      if (c.length === 1 && c.charCodeAt(0) < 0x80 && !isAlnum(c)) return t;
      return invalid();
  }
}

/** parseUnicodeClass: `\pN`, `\p{Name}`, `\PN`, `\P{^Name}`; returns the rest, or undefined when `s` is not one. */
function parseUnicodeClass(s: string): string | undefined {
  if (s.length < 2 || s[0] !== '\\' || (s[1] !== 'p' && s[1] !== 'P')) return undefined;
  let [c, t] = nextRune(s.slice(2));
  let seq: string;
  let name: string;
  if (c !== '{') {
    seq = s.slice(0, s.length - t.length);
    name = seq.slice(2);
  } else {
    const end = s.indexOf('}');
    if (end < 0) fail(ERR.invalidCharRange, s);
    seq = s.slice(0, end + 1);
    t = s.slice(end + 1);
    name = s.slice(3, end);
  }
  if (name.startsWith('^')) name = name.slice(1);
  if (!unicodeTableExists(name)) fail(ERR.invalidCharRange, seq);
  return t;
}

/** parsePerlClassEscape: `\d \D \s \S \w \W`. */
function isPerlClassEscape(s: string): boolean {
  return s.length >= 2 && s[0] === '\\' && 'dDsSwW'.includes(s[1]!);
}

/** parseClassChar: one character of a class (literal or escape); returns [the character's text, rest]. */
function parseClassChar(s: string, wholeClass: string): [string, string] {
  if (s === '') fail(ERR.missingBracket, wholeClass);
  if (s[0] === '\\') {
    const rest = parseEscape(s);
    return [s.slice(0, s.length - rest.length), rest];
  }
  return nextRune(s);
}

/** The code point of a class character's text (for range order). */
function classCharValue(text: string): number {
  if (text[0] !== '\\') return text.codePointAt(0)!;
  const c = text[1]!;
  if (c >= '0' && c <= '7') return parseInt(text.slice(1), 8);
  if (c === 'x') return parseInt(text.slice(2).replace(/[{}]/g, ''), 16);
  const simple: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
  return simple[c] ?? text.codePointAt(1)!;
}

/** parseClass: `[...]` at the start of `s`; returns the rest after `]`. */
function parseClass(s: string): string {
  let t = s.slice(1);
  if (t.startsWith('^')) t = t.slice(1);
  let first = true; // ] and - are literals as the first character
  while (t === '' || t[0] !== ']' || first) {
    first = false;
    // POSIX classes: [:alnum:], [:^alpha:]
    if (t.length > 2 && t[0] === '[' && t[1] === ':') {
      const end = t.indexOf(':]', 2);
      if (end >= 0) {
        const named = t.slice(0, end + 2);
        const posix = named.slice(2, -2).replace(/^\^/, '');
        if (!POSIX_CLASSES.has(posix)) fail(ERR.invalidCharRange, named);
        t = t.slice(end + 2);
        continue;
      }
    }
    const afterUnicode = parseUnicodeClass(t);
    if (afterUnicode !== undefined) {
      t = afterUnicode;
      continue;
    }
    if (isPerlClassEscape(t)) {
      t = t.slice(2);
      continue;
    }
    const range = t;
    let lo: string;
    [lo, t] = parseClassChar(t, s);
    if (t.length >= 2 && t[0] === '-' && t[1] !== ']') {
      t = t.slice(1);
      let hi: string;
      [hi, t] = parseClassChar(t, s);
      if (classCharValue(hi) < classCharValue(lo)) fail(ERR.invalidCharRange, range.slice(0, range.length - t.length));
    }
  }
  return t.slice(1);
}

/** parseInt of a repeat count: [value (-1 when too big), rest] or undefined. */
function parseRepeatInt(s: string): [number, string] | undefined {
  if (s === '' || s[0]! < '0' || s[0]! > '9') return undefined;
  if (s.length >= 2 && s[0] === '0' && s[1]! >= '0' && s[1]! <= '9') return undefined; // no leading zeros
  let i = 0;
  while (i < s.length && s[i]! >= '0' && s[i]! <= '9') i++;
  let n = 0;
  for (const d of s.slice(0, i)) {
    if (n >= 1e8) {
      n = -1;
      break;
    }
    n = n * 10 + Number(d);
  }
  return [n, s.slice(i)];
}

/** parseRepeat: `{n}`, `{n,}`, `{n,m}`; undefined when `s` does not start with one (then `{` is a literal). */
function parseRepeat(s: string): { min: number; max: number; rest: string } | undefined {
  if (!s.startsWith('{')) return undefined;
  const a = parseRepeatInt(s.slice(1));
  if (!a) return undefined;
  let [min, t] = a;
  let max: number;
  if (t === '') return undefined;
  if (t[0] !== ',') max = min;
  else {
    t = t.slice(1);
    if (t === '') return undefined;
    if (t[0] === '}') max = -1;
    else {
      const b = parseRepeatInt(t);
      if (!b) return undefined;
      [max, t] = b;
      if (max < 0) min = -1;
    }
  }
  if (t === '' || t[0] !== '}') return undefined;
  return { min, max, rest: t.slice(1) };
}

function isValidCaptureName(name: string): boolean {
  return /^[0-9A-Za-z_]+$/.test(name); // Go accepts ASCII letters, digits and _ only
}

/**
 * parsePerlFlags: `(?` at the start of `s`. Returns the rest and whether a group was opened (`(?:`, `(?P<name>`,
 * `(?<name>`); a bare flag setting such as `(?i)` opens none.
 */
function parsePerlFlags(s: string): { rest: string; opened: boolean } {
  const startsWithP = s.length > 4 && s[2] === 'P' && s[3] === '<';
  const startsWithName = s.length > 3 && s[2] === '<';
  if (startsWithP || startsWithName) {
    const end = s.indexOf('>');
    if (end < 0) fail(ERR.invalidNamedCapture, s);
    const capture = s.slice(0, end + 1);
    const name = s.slice(startsWithP ? 4 : 3, end);
    if (!isValidCaptureName(name)) fail(ERR.invalidNamedCapture, capture);
    return { rest: s.slice(end + 1), opened: true };
  }
  let t = s.slice(2);
  let negated = false;
  let sawFlag = false;
  while (t !== '') {
    let c: string;
    [c, t] = nextRune(t);
    if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
      sawFlag = true;
      continue;
    }
    if (c === '-') {
      if (negated) break;
      negated = true;
      sawFlag = false;
      continue;
    }
    if (c === ':' || c === ')') {
      if (negated && !sawFlag) break;
      return { rest: t, opened: c === ':' };
    }
    break;
  }
  return fail(ERR.invalidPerlOp, s.slice(0, s.length - t.length));
}

function parse(pattern: string): void {
  let t = pattern;
  let depth = 0;
  // whether the top of Go's parse stack is an operand a repetition may apply to (not empty, `(` or `|`)
  let operand = false;
  let lastRepeat = '';

  const repeat = (before: string, after: string): string => {
    if (after.startsWith('?')) after = after.slice(1); // non-greedy
    if (lastRepeat !== '') fail(ERR.invalidRepeatOp, lastRepeat.slice(0, lastRepeat.length - after.length));
    if (!operand) fail(ERR.missingRepeatArgument, before.slice(0, before.length - after.length));
    return after;
  };

  while (t !== '') {
    let repeated = '';
    const c = t[0]!;
    if (c === '(') {
      if (t.length >= 2 && t[1] === '?') {
        const { rest, opened } = parsePerlFlags(t);
        t = rest;
        if (opened) {
          depth++;
          operand = false;
        }
      } else {
        depth++;
        operand = false;
        t = t.slice(1);
      }
    } else if (c === '|') {
      operand = false;
      t = t.slice(1);
    } else if (c === ')') {
      if (depth === 0) fail(ERR.unexpectedParen, pattern);
      depth--;
      operand = true;
      t = t.slice(1);
    } else if (c === '^' || c === '$' || c === '.') {
      operand = true;
      t = t.slice(1);
    } else if (c === '[') {
      t = parseClass(t);
      operand = true;
    } else if (c === '*' || c === '+' || c === '?') {
      const before = t;
      t = repeat(before, t.slice(1));
      repeated = before;
    } else if (c === '{') {
      const before = t;
      const r = parseRepeat(t);
      if (!r) {
        operand = true; // `{` is a literal
        t = t.slice(1);
      } else {
        if (r.min < 0 || r.min > 1000 || r.max > 1000 || (r.max >= 0 && r.min > r.max)) {
          fail(ERR.invalidRepeatSize, before.slice(0, before.length - r.rest.length));
        }
        t = repeat(before, r.rest);
        repeated = before;
      }
    } else if (c === '\\') {
      const next = t[1];
      if (next === 'A' || next === 'b' || next === 'B' || next === 'z') {
        operand = true;
        t = t.slice(2);
      } else if (next === 'C') {
        fail(ERR.invalidEscape, t.slice(0, 2));
      } else if (next === 'Q') {
        const end = t.indexOf('\\E', 2);
        const literal = end < 0 ? t.slice(2) : t.slice(2, end);
        t = end < 0 ? '' : t.slice(end + 2);
        if (literal !== '') operand = true;
      } else {
        const afterUnicode = parseUnicodeClass(t);
        if (afterUnicode !== undefined) t = afterUnicode;
        else if (isPerlClassEscape(t)) t = t.slice(2);
        else t = parseEscape(t);
        operand = true;
      }
    } else {
      t = nextRune(t)[1];
      operand = true;
    }
    lastRepeat = repeated;
  }
  if (depth > 0) fail(ERR.missingParen, pattern);
}

/** Go's regexp.Compile error for `pattern` (`error parsing regexp: ...`), or undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  try {
    parse(pattern);
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxFailure) return `error parsing regexp: ${err.failure.code}: \`${err.failure.expr}\``;
    throw err;
  }
}
