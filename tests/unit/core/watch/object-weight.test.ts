import test from 'ava';
import { objectWeight } from '../../../../core/watch/object-weight.js';

test('a string weighs a byte a character when all are Latin-1, two when one is not', (t) => {
  const ascii = objectWeight('a'.repeat(1000));
  t.is(objectWeight(`${'a'.repeat(999)}é`), ascii);
  t.is(objectWeight(`${'a'.repeat(999)}€`) - ascii, 1000);
});

test('an object weighs its keys and values, nested ones included', (t) => {
  const flat = objectWeight({ spec: { color: 'x'.repeat(1000) } });
  t.true(flat > 1000 + 'spec'.length + 'color'.length);
  t.true(objectWeight({ spec: { color: 'x'.repeat(1000) }, items: [1, 2, 3] }) > flat);
  t.true(objectWeight([{ a: '€'.repeat(500) }]) >= 1000);
});
