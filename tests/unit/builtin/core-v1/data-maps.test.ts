import test from 'ava';
import { byteSize, canonicalizeBytes, dropIfEmpty, immutableCauses, keyCauses, sortedKeys } from '../../../../builtin/core-v1/data-maps.js';

test('base64 values are rewritten as Go re-encodes the decoded bytes', (t) => {
  const map = { a: 'aGVs\r\nbG8=', b: 'aGVsbG9=', c: '', d: 'AB==' };
  canonicalizeBytes(map);
  t.deepEqual(map, { a: 'aGVsbG8=', b: 'aGVsbG8=', c: '', d: 'AA==' });
  t.deepEqual([byteSize('aGVsbG8='), byteSize(''), byteSize('AAAA'), byteSize('AA==')], [5, 0, 3, 1]);
});

test('keys in Go string order; each invalid key named at field[key]', (t) => {
  t.deepEqual(sortedKeys({ b: '', B: '', 'a.b': '', _: '' }), ['B', '_', 'a.b', 'b']);
  t.deepEqual(keyCauses('data', 'ok.key'), []);
  t.deepEqual(keyCauses('binaryData', '..'), [{ reason: 'FieldValueInvalid', message: `Invalid value: "..": must not be '..'`, field: 'binaryData[..]' }]);
});

test('empty maps are dropped (omitempty), others kept', (t) => {
  const obj: Record<string, unknown> = { data: {}, binaryData: { a: '' }, immutable: false };
  dropIfEmpty(obj, 'data');
  dropIfEmpty(obj, 'binaryData');
  dropIfEmpty(obj, 'immutable');
  t.deepEqual(obj, { binaryData: { a: '' }, immutable: false });
});

test('immutable: only an old object with immutable true fixes the fields and immutable itself', (t) => {
  const forbidden = (field: string) => ({ reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set', field });
  t.deepEqual(immutableCauses({ data: { a: '2' } }, { immutable: false, data: { a: '1' } }, ['data']), []);
  t.deepEqual(immutableCauses({ immutable: true, data: { a: '1' } }, { immutable: true, data: { a: '1' } }, ['data', 'binaryData']), []);
  t.deepEqual(immutableCauses({ data: { a: '1' } }, { immutable: true, data: { a: '1' } }, ['data']), [forbidden('immutable')]);
  t.deepEqual(immutableCauses({ immutable: true }, { immutable: true, data: { a: '1' }, binaryData: {} }, ['data', 'binaryData']), [forbidden('data')]);
});
