import test from 'ava';
import { objectMetaDecodeError } from '../../core/validation/object-meta-decoding.js';

const typed = { kindStruct: 'Namespace' };

test('each ObjectMeta field of the wrong type is Go\'s decode error, with the path typed kinds report', (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ labels: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    [{ labels: { a: 5 } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    [{ annotations: ['a'] }, 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type map[string]string'],
    [{ finalizers: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string'],
    [{ finalizers: [true] }, 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.finalizers of type string'],
    [{ ownerReferences: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.ownerReferences of type []v1.OwnerReference'],
    [{ ownerReferences: ['x'] }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.ownerReferences of type v1.OwnerReference'],
    [{ ownerReferences: [{ uid: 5 }] }, 'json: cannot unmarshal number into Go struct field OwnerReference.metadata.ownerReferences.uid of type types.UID'],
    [{ ownerReferences: [{ controller: 'yes' }] }, 'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool'],
    [{ name: -1 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string'],
    [{ generation: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64'],
    [{ generation: '1' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64'],
    [{ managedFields: [{ operation: 1 }] }, 'json: cannot unmarshal number into Go struct field ManagedFieldsEntry.metadata.managedFields.operation of type v1.ManagedFieldsOperationType'],
    [{ creationTimestamp: 5 }, 'json: cannot unmarshal number into Go value of type string'],
  ];
  for (const [meta, message] of cases) t.is(objectMetaDecodeError(meta, typed), message, JSON.stringify(meta));
});

test('the first error in document order is reported, as encoding/json reports the earliest', (t) => {
  t.is(objectMetaDecodeError({ finalizers: 'x', labels: 'y' }, typed), 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string');
  t.is(objectMetaDecodeError({ labels: 'y', finalizers: 'x' }, typed), 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string');
});

test('custom resources decode metadata alone: no metadata. in the path; a non-object is a Go value error', (t) => {
  t.is(objectMetaDecodeError({ labels: 'x' }, 'standalone'), 'json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string');
  t.is(objectMetaDecodeError('x', 'standalone'), 'json: cannot unmarshal string into Go value of type v1.ObjectMeta');
  t.is(objectMetaDecodeError('x', typed), 'json: cannot unmarshal string into Go struct field Namespace.metadata of type v1.ObjectMeta');
});

test('nulls become Go zero values in place; valid and unknown fields are left alone', (t) => {
  const meta: Record<string, unknown> = { name: 'a', labels: { a: null, b: 'c' }, finalizers: [null, 'x/y'], ownerReferences: [null], uid: null, bogus: 5 };
  t.is(objectMetaDecodeError(meta, typed), undefined);
  t.deepEqual(meta, { name: 'a', labels: { a: '', b: 'c' }, finalizers: ['', 'x/y'], ownerReferences: [{}], bogus: 5 });
});
