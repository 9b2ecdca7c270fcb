/**
 * Go (RE2) regular expressions, as kube-openapi evaluates `pattern`, translated to JavaScript. The translation covers
 * what differs in practice: leading flag groups (`(?i)`), `\z` and `\A`, `(?P<name>`, POSIX classes (`[[:alpha:]]`),
 * ASCII-only `\s`, `.` matching `\r`, Unicode classes by script (`\p{Greek}`), `\Q...\E`, and Go's permission to
 * escape any punctuation. Matching is by code point (the `u` flag), like Go.
 */

const cache = new Map<string, RegExp | null>();

/** The JavaScript equivalent of a Go regexp, or null when it cannot be expressed (the check is then skipped). */
export function compileGoRegexp(pattern: string): RegExp | null {
  let re = cache.get(pattern);
  if (re !== undefined) return re;
  re = tryCompile(pattern);
  cache.set(pattern, re);
  return re;
}

function tryCompile(pattern: string): RegExp | null {
  try {
    const { source, flags } = translate(pattern);
    return new RegExp(source, flags + 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return null;
    }
  }
}

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const GENERAL_CATEGORIES = new Set([
  'L', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'M', 'Mn', 'Mc', 'Me', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Ps', 'Pe', 'Pi',
  'Pf', 'Po', 'S', 'Sm', 'Sc', 'Sk', 'So', 'Z', 'Zs', 'Zl', 'Zp', 'C', 'Cc', 'Cf', 'Cs', 'Co',
]);

/** Characters that may follow a backslash in a JavaScript `u`-mode pattern. */
const JS_SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);

function unicodeClass(name: string, negated: boolean): string {
  const p = negated ? 'P' : 'p';
  if (name === 'Any') return negated ? '[^\\s\\S]' : '[\\s\\S]';
  if (GENERAL_CATEGORIES.has(name)) return `\\${p}{${name}}`;
  return `\\${p}{Script=${name}}`;
}

function translate(pattern: string): { source: string; flags: string } {
  let flags = '';
  let dotAll = false;
  let out = '';
  let i = 0;
  let inClass = false;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) throw new Error('trailing backslash');
      i += 2;
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i);
        const literal = end < 0 ? pattern.slice(i) : pattern.slice(i, end);
        out += [...literal].map((ch) => escapeLiteral(ch, inClass)).join('');
        i = end < 0 ? n : end + 2;
      } else if (next === 'z') {
        out += '(?![\\s\\S])';
      } else if (next === 'A') {
        out += '(?<![\\s\\S])';
      } else if (next === 's') {
        out += inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]';
      } else if (next === 'S' && !inClass) {
        out += '[^\\t\\n\\f\\r ]';
      } else if (next === 'p' || next === 'P') {
        let name: string;
        if (pattern[i] === '{') {
          const end = pattern.indexOf('}', i);
          if (end < 0) throw new Error('bad \\p');
          name = pattern.slice(i + 1, end);
          i = end + 1;
        } else {
          name = pattern[i];
          i += 1;
        }
        let negated = next === 'P';
        if (name.startsWith('^')) {
          negated = !negated;
          name = name.slice(1);
        }
        out += unicodeClass(name, negated);
      } else if (next === 'x' && pattern[i] === '{') {
        const end = pattern.indexOf('}', i);
        out += `\\u{${pattern.slice(i + 1, end)}}`;
        i = end + 1;
      } else if (/[0-7]/.test(next)) {
        // octal escape (\123); Go has no backreferences
        let digits = next;
        while (digits.length < 3 && /[0-7]/.test(pattern[i] ?? '')) digits += pattern[i++];
        out += `\\u{${parseInt(digits, 8).toString(16)}}`;
      } else if (/[A-Za-z0-9]/.test(next)) {
        out += '\\' + next; // \d \w \b \B \D \W \n \t \f \r \v \x.. and the like mean the same
      } else {
        out += escapeLiteral(next, inClass);
      }
      continue;
    }
    if (inClass) {
      if (c === '[' && pattern[i + 1] === ':') {
        const end = pattern.indexOf(':]', i + 2);
        if (end < 0) throw new Error('bad POSIX class');
        let name = pattern.slice(i + 2, end);
        const negated = name.startsWith('^');
        if (negated) name = name.slice(1);
        const body = POSIX[name];
        if (body === undefined || negated) throw new Error('unsupported POSIX class');
        out += body;
        i = end + 2;
        continue;
      }
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      i += 1;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += '[';
      i += 1;
      if (pattern[i] === '^') {
        out += '^';
        i += 1;
      }
      if (pattern[i] === ']') {
        out += '\\]'; // a leading ] is a literal in Go
        i += 1;
      }
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(pattern.slice(i));
      if (named) {
        out += `(?<${named[1]}>`;
        i += named[0].length;
        continue;
      }
      const flagGroup = /^\(\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(pattern.slice(i));
      if (flagGroup && flagGroup[3] === ')') {
        // (?flags): JavaScript has no inline flags; apply them to the whole expression.
        for (const f of flagGroup[1]) {
          if (f === 'i' && !flags.includes('i')) flags += 'i';
          if (f === 'm' && !flags.includes('m')) flags += 'm';
          if (f === 's') dotAll = true;
        }
        i += flagGroup[0].length;
        continue;
      }
      if (flagGroup && flagGroup[3] === ':' && (flagGroup[1] || flagGroup[2])) {
        for (const f of flagGroup[1]) {
          if (f === 'i' && !flags.includes('i')) flags += 'i';
          if (f === 's') dotAll = true;
        }
        out += '(?:';
        i += flagGroup[0].length;
        continue;
      }
    }
    if (c === '.') {
      out += dotAll ? '[\\s\\S]' : '[^\\n]';
      i += 1;
      continue;
    }
    out += c;
    i += 1;
  }
  return { source: out, flags };
}

function escapeLiteral(ch: string, inClass: boolean): string {
  if (JS_SYNTAX.has(ch) || (inClass && ch === '-')) return '\\' + ch;
  return ch;
}
