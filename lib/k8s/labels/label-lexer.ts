/**
 * Tokens of the label selector string syntax, split as labels.Lexer does: whitespace is ' ', '\t', '\r', '\n';
 * `= == != ! ( ) , > <` are symbols; anything else runs into an identifier (`in`/`notin` become keywords).
 * A NUL character ends the input where a token would start; directly after a token it is skipped.
 */

export type TokenKind = 'end' | 'ident' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';

export interface Token {
  readonly kind: TokenKind;
  /** The source text ('' for end). */
  readonly text: string;
}

const whitespace = new Set([' ', '\t', '\r', '\n']);
const symbols = new Set(['=', '!', '(', ')', ',', '>', '<']);

export function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && whitespace.has(s[i])) i++;
    if (i >= s.length || s[i] === '\0') {
      tokens.push({ kind: 'end', text: '' });
      return tokens;
    }
    if (symbols.has(s[i])) {
      const pair = s.slice(i, i + 2);
      const text = pair === '==' || pair === '!=' ? pair : s[i];
      tokens.push({ kind: text as TokenKind, text });
      i += text.length;
    } else {
      const start = i;
      while (i < s.length && !whitespace.has(s[i]) && !symbols.has(s[i]) && s[i] !== '\0') i++;
      const text = s.slice(start, i);
      tokens.push({ kind: text === 'in' || text === 'notin' ? text : 'ident', text });
    }
    if (s[i] === '\0') i++;
  }
}
