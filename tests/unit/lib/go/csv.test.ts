import test from 'ava';
import { CsvParseError, parseCsv } from '../../../../lib/go/csv.js';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

test('records as Go\'s csv.Reader reads them: quotes, doubled quotes, empty fields, CRLF, empty lines skipped', (t) => {
  t.deepEqual(fields('a,b,c\n'), [['a', 'b', 'c']]);
  t.deepEqual(fields('tok,alice,1,"devs,ops"'), [['tok', 'alice', '1', 'devs,ops']]);
  t.deepEqual(fields('"say ""hi""",,x,\r\n\n\nlast'), [['say "hi"', '', 'x', ''], ['last']]);
  t.deepEqual(fields(' a , b '), [[' a ', ' b ']]);
  t.deepEqual(fields('"two\nlines",x\ny'), [['two\nlines', 'x'], ['y']]);
  t.deepEqual(fields(''), []);
});

test('records know the line they start on', (t) => {
  t.deepEqual(
    parseCsv('a\n\n"b\nc",d\ne\n').map((r) => r.line),
    [1, 3, 5],
  );
});

test('quote errors carry Go\'s ParseError text, with a 1-based byte column', (t) => {
  const cases: [string, string][] = [
    ['a "word","b"\n', 'parse error on line 1, column 3: bare " in non-quoted field'],
    ['ok\na""b,c', 'parse error on line 2, column 2: bare " in non-quoted field'],
    ['"a word",b"', 'parse error on line 1, column 11: bare " in non-quoted field'],
    ['"a "word","b"', 'parse error on line 1, column 4: extraneous or missing " in quoted-field'],
    ['"multi\nline"x', 'record on line 1; parse error on line 2, column 5: extraneous or missing " in quoted-field'],
    ['é"', 'parse error on line 1, column 3: bare " in non-quoted field'],
  ];
  for (const [text, message] of cases) t.throws(() => parseCsv(text), { instanceOf: CsvParseError, message }, JSON.stringify(text));
});
