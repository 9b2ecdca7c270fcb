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
  ava.deepEqual(goDecode(obj, outer), { unknownFields: [] });
  ava.deepEqual(obj, { list: [{}, {}], byKey: { k: {} } });
  ava.is(goDecodeError([] as never, outer), 'json: cannot unmarshal array into Go value of type v1.Outer');
});

const open = t.struct('v1.Open', { raw: t.json('runtime.RawExtension'), labels: t.map(t.string()), inner });

test('unknown fields are dropped and named by their path in document order: struct fields, list indexes, map keys', (ava) => {
  const obj: Record<string, unknown> = { zz: 1, list: [{ n: 1 }, { n: 2, x: true }], byKey: { 'a.b': { s: 's', y: 1 } }, either: { z: 1 }, a: 'kept' };
  ava.deepEqual(goDecode(obj, outer), { unknownFields: ['zz', 'list[1].x', 'byKey.a.b.y'], firstUnknownIndex: 0 });
  // a custom unmarshaler decodes leniently: its unknown fields are dropped, not reported
  ava.deepEqual(obj, { list: [{ n: 1 }, { n: 2 }], byKey: { 'a.b': { s: 's' } }, either: {}, a: 'kept' });
});

test('open parts (JSON values, string maps) have no unknown fields; keepUnknown finds them but leaves them', (ava) => {
  const obj: Record<string, unknown> = { raw: { anything: { goes: 1 } }, labels: { any: 'key' }, inner: { n: 1, bogus: 2 } };
  // the first unknown field's index is among the fields of its own object (what kube's CBOR decoder reports)
  ava.deepEqual(goDecode(obj, open, { keepUnknown: true }), { unknownFields: ['inner.bogus'], firstUnknownIndex: 1 });
  ava.deepEqual(obj, { raw: { anything: { goes: 1 } }, labels: { any: 'key' }, inner: { n: 1, bogus: 2 } });
});

test('a type error wins over unknown fields and leaves the object as it was', (ava) => {
  const obj = { bogus: 1, a: 5 };
  ava.deepEqual(goDecode(obj, outer), { error: 'json: cannot unmarshal number into Go struct field Outer.a of type string' });
  ava.deepEqual(obj, { bogus: 1, a: 5 });
});

test("as kube's strict decoder, the first 100 distinct unknown fields are reported; all are dropped, in one pass", (ava) => {
  const obj: Record<string, unknown> = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`f${i}`, i]));
  const { unknownFields } = goDecode(obj, outer);
  ava.is(unknownFields?.length, 100);
  ava.is(unknownFields?.[99], 'f99');
  ava.deepEqual(obj, {});
});

test("a self-containing struct's fields are made once, not per node decoded (a CRD schema has one per property)", (ava) => {
  let made = 0;
  const node: ReturnType<typeof t.struct> = t.struct('v1.Node', () => {
    made++;
    return { name: t.string(), children: t.map(node) };
  });
  const tree = (depth: number): object => ({ name: `d${depth}`, ...(depth ? { children: { a: tree(depth - 1), b: tree(depth - 1) } } : {}) });
  ava.deepEqual(goDecode(tree(4), node), { unknownFields: [] });
  ava.deepEqual(goDecode({ children: { x: { name: 1 } } }, node), { error: 'json: cannot unmarshal number into Go struct field Node.children.name of type string' });
  ava.is(made, 1);
});
