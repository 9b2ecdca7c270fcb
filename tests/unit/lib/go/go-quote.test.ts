// Go's strconv.Quote (`%q`), the one quoting every kube message built from user text goes through.
import test from 'ava';
import { goQuote, isGoPrint } from '../../../../lib/go/go-values.js';

test('quote and backslash are backslashed, printable ASCII kept', (t) => {
  t.is(goQuote(''), '""');
  t.is(goQuote('plain text ~'), '"plain text ~"');
  t.is(goQuote('a"b'), '"a\\"b"');
  t.is(goQuote('\\'), '"\\\\"');
});

test('control characters: the short escapes, else \\xNN (DEL too)', (t) => {
  t.is(goQuote('\u0007\b\f\n\r\t\v'), '"\\a\\b\\f\\n\\r\\t\\v"');
  t.is(goQuote('\u0000\u0001\u001b'), '"\\x00\\x01\\x1b"');
  t.is(goQuote('\u007f'), '"\\x7f"');
});

test('printable runes (unicode.IsPrint) are kept, emoji included', (t) => {
  t.is(goQuote('\u00e9'), '"é"');
  t.is(goQuote('日本語 ✓'), '"日本語 ✓"');
  t.is(goQuote('😀'), '"😀"');
  t.is(goQuote('e\u0301'), '"e\u0301"'); // a combining mark (M) is printable
});

test('other runes: \\u below U+10000, \\U above', (t) => {
  t.is(goQuote('\u200b'), '"\\u200b"'); // zero width space (Cf)
  t.is(goQuote('\u00a0'), '"\\u00a0"'); // no-break space: only the ASCII space is printable
  t.is(goQuote('\u0085\u2028'), '"\\u0085\\u2028"');
  t.is(goQuote('\ue000'), '"\\ue000"'); // private use
  t.is(goQuote('\u{e0001}'), '"\\U000e0001"'); // language tag (Cf)
  t.is(goQuote('\u{10ffff}'), '"\\U0010ffff"');
});

test('a lone surrogate is the U+FFFD Go decoded from its JSON escape, and U+FFFD is printable', (t) => {
  t.is(goQuote('a\ud800b'), '"a\ufffdb"');
  t.is(goQuote('\udc00'), '"\ufffd"');
  t.is(goQuote(JSON.parse('"\\udfff\\ud83d"') as string), '"\ufffd\ufffd"');
  t.is(goQuote('\ufffd'), '"\ufffd"');
  t.is(goQuote('\ud83d\ude00'), '"😀"'); // a pair is one rune
});

test('isGoPrint: letters, marks, numbers, punctuation, symbols and the ASCII space only', (t) => {
  for (const ch of ['a', ' ', '~', 'é', '\u0301', '٣', '«', '€', '😀', '\ufffd']) t.true(isGoPrint(ch), ch);
  for (const ch of ['\t', '\u007f', '\u00a0', '\u2003', '\u200b', '\u2028', '\ud800', '\ue000']) t.false(isGoPrint(ch), ch);
});
