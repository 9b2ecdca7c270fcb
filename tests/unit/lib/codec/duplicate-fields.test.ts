import test from 'ava';
import { duplicateFields } from '../../../../lib/codec/duplicate-fields.js';

test('keys repeated in one object are reported with their path', (t) => {
  t.deepEqual(duplicateFields('{"spec":{"replicas":1,"color":"a","replicas":2}}'), ['spec.replicas']);
  t.deepEqual(duplicateFields('{"a":1,"a":2,"a":3}'), ['a', 'a']);
  t.deepEqual(duplicateFields('{"spec":{"items":[{"n":1},{"n":2,"n":3}]}}'), ['spec.items[1].n']);
});

test('the same key in different objects, in strings or escaped, is not a duplicate', (t) => {
  t.deepEqual(duplicateFields('{"a":{"x":1},"b":{"x":"{\\"x\\":1,\\"x\\":2}"}}'), []);
  t.deepEqual(duplicateFields('{"a\\"b":1,"a\\u0022b2":2, "c": [1, 2, {"d": [ ]}]}'), []);
  t.deepEqual(duplicateFields('{"\\u0061":1,"a":2}'), ['a']);
});
