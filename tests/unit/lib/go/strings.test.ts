// Go's string order: `<` on strings compares UTF-8 bytes.
import test from 'ava';
import { goCompare } from '../../../../lib/go/strings.js';

const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

test('strings order by their UTF-8 bytes', (t) => {
  t.true(goCompare('z', 'é') < 0); // 7A < C3 A9
  t.true(goCompare('é', 'z') > 0);
  t.true(goCompare('Z', 'a') < 0);
  t.true(goCompare('a', 'ab') < 0);
  t.true(goCompare('', 'a') < 0);
  t.is(goCompare('é', 'é'), 0);
  // U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80), though its UTF-16 code unit is the larger.
  t.true(goCompare('\uff21', '\u{1f600}') < 0);
  t.true(goCompare('\u{1f600}', '\uff21') > 0);
  t.true(goCompare('\u{1f600}', '\u{1f601}') < 0);
});

test('sorting with goCompare matches sorting the UTF-8 encodings', (t) => {
  const words = ['b', 'a', 'é', 'z', 'Z', 'ab', '', '\uff21', '\u{1f600}', '\ue000', '\ud7ff', 'a\u{10000}', 'a\uffff', '中文', '~'];
  t.deepEqual([...words].sort(goCompare), [...words].sort(utf8Order));
});
