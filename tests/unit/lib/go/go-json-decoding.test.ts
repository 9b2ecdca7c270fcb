// The Go JSON decoder model: encoding/json's error texts and what it makes of nulls, as kube's decoder reports them.
import test from 'ava';
import { goDecode, goDecodeError, goTypes as t } from '../../../../lib/go/json-decoding.js';

const inner = t.struct('v1.Inner', { n: t.int32, s: t.string() });
const orInner = t.unmarshaler('v1.InnerOrBool', (v) => (typeof v === 'boolean' ? undefined : typeof v === 'object' && !Array.isArray(v) ? inner : 'inner or bool expected'));
const outer = t.struct('v1.Outer', { a: t.string(), list: t.slice(inner), byKey: t.map(inner), either: orInner, f: t.float64, big: t.int64 });

test('a number is named by its literal only when it does not fit an integer', (ava) => {
  ava.is(goDecodeError({ a: 5 }, outer), 'json: cannot unmarshal number into Go struct field Outer.a of type string');
  ava.is(goDecodeError({ list: [{ n: 1.5 }] }, outer), 'json: cannot unmarshal number 1.5 into Go struct field Inner.list.n of type int32');
  ava.is(goDecodeError({ list: [{ n: 2 ** 31 }] }, outer), `json: cannot unmarshal number ${2 ** 31} into Go struct field Inner.list.n of type int32`);
  ava.is(goDecodeError({ big: 2 ** 31, f: 0.5 }, outer), undefined);
});

test('type mismatches are saved and the first in document order is reported; map keys are not in the path', (ava) => {
  ava.is(goDecodeError({ byKey: { k: { s: [] } }, a: 1 }, outer), 'json: cannot unmarshal array into Go struct field Inner.byKey.s of type string');
  ava.is(goDecodeError({ a: 1, byKey: { k: { s: [] } } }, outer), 'json: cannot unmarshal number into Go struct field Outer.a of type string');
});

test("a custom unmarshaler's error stops decoding, and a type error inside it is reported at the outer field", (ava) => {
  ava.is(goDecodeError({ a: 1, either: 'x' }, outer), 'inner or bool expected');
  ava.is(goDecodeError({ either: { n: 'x' } }, outer), 'json: cannot unmarshal string into Go struct field Outer.either of type int32');
  ava.is(goDecodeError({ either: true }, outer), undefined);
});

test('nulls: a struct field is left unset, list and map entries become zero values', (ava) => {
  const obj: Record<string, unknown> = { a: null, list: [null, { n: null }], byKey: { k: null } };
  ava.is(goDecode(obj, outer), undefined);
  ava.deepEqual(obj, { list: [{}, {}], byKey: { k: {} } });
  ava.is(goDecodeError([] as never, outer), 'json: cannot unmarshal array into Go value of type v1.Outer');
});
