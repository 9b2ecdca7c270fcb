import test from 'ava';
import type { StatusCause } from '../../../../core/contracts/status.js';
import type { ObjectMeta } from '../../../../core/contracts/resource-type.js';
import { finalizerWarnings } from '../../../../lib/k8s/finalizers.js';
import { validateObjectMetaCreate, validateObjectMetaUpdate, type ObjectMetaValidationOptions } from '../../../../core/validation/object-meta.js';

const namespaced: ObjectMetaValidationOptions = { namespaced: true, nameValidator: 'subdomain' };
const cluster: ObjectMetaValidationOptions = { namespaced: false, nameValidator: 'label', standardFinalizerNames: true };

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const keyNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** Causes as kube prints them in a Status message. */
const lines = (causes: StatusCause[]): string[] => causes.map((c) => `${c.field}: ${c.message}`);

const valid: ObjectMeta = {
  name: 'w1',
  namespace: 'default',
  uid: 'u1',
  resourceVersion: '5',
  creationTimestamp: '2024-01-01T00:00:00Z',
  labels: { 'app.kubernetes.io/name': 'web', tier: '' },
  annotations: { 'Example.com/Note': 'anything goes' },
  finalizers: ['example.com/cleanup'],
  ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'x', controller: true }],
};

test('valid metadata has no causes', (t) => {
  t.deepEqual(validateObjectMetaCreate(valid, namespaced), []);
  t.deepEqual(validateObjectMetaCreate({ name: 'ns1', finalizers: ['kubernetes'] }, cluster), []);
  t.deepEqual(validateObjectMetaCreate({ name: 'Any_Name', namespace: 'default' }, { namespaced: true, nameValidator: 'path-segment' }), []);
});

test('name and generateName', (t) => {
  t.deepEqual(validateObjectMetaCreate({ namespace: 'default' }, namespaced), [
    { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
  ]);
  t.deepEqual(validateObjectMetaCreate({ name: 'Bad_Name', namespace: 'default' }, namespaced), [
    { reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${subdomainMsg}`, field: 'metadata.name' },
  ]);
  t.deepEqual(lines(validateObjectMetaCreate({ generateName: 'Web-', name: 'Web-x1', namespace: 'default' }, namespaced)), [
    `metadata.generateName: Invalid value: "Web-": ${subdomainMsg}`,
    `metadata.name: Invalid value: "Web-x1": ${subdomainMsg}`,
  ]);
  t.deepEqual(lines(validateObjectMetaCreate({ name: 'a.b' }, cluster)), [`metadata.name: Invalid value: "a.b": ${labelMsg}`]);
  t.deepEqual(lines(validateObjectMetaCreate({ name: '..', namespace: 'n' }, { namespaced: true, nameValidator: 'path-segment' })), [
    `metadata.name: Invalid value: "..": may not be '..'`,
  ]);
});

test('namespace by scope', (t) => {
  t.deepEqual(lines(validateObjectMetaCreate({ name: 'w1' }, namespaced)), ['metadata.namespace: Required value']);
  t.deepEqual(lines(validateObjectMetaCreate({ name: 'w1', namespace: 'Bad' }, namespaced)), [
    `metadata.namespace: Invalid value: "Bad": ${labelMsg}`,
  ]);
  t.deepEqual(validateObjectMetaCreate({ name: 'c1', namespace: 'default' }, cluster), [
    { reason: 'FieldValueForbidden', message: 'Forbidden: not allowed on this type', field: 'metadata.namespace' },
  ]);
});

test('labels and annotations', (t) => {
  const meta = { ...valid, labels: { 'bad key!': 'ok', good: 'bad value' } };
  t.deepEqual(lines(validateObjectMetaCreate(meta, namespaced)), [
    `metadata.labels: Invalid value: "bad key!": ${keyNameMsg}`,
    `metadata.labels: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
  ]);
  t.deepEqual(lines(validateObjectMetaCreate({ ...valid, annotations: { 'a/b/c': 'x' } }, namespaced)), [
    `metadata.annotations: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
  ]);
  const big = { a: 'x'.repeat(256 * 1024 - 1) };
  t.deepEqual(validateObjectMetaCreate({ ...valid, annotations: big }, namespaced), []);
  t.deepEqual(validateObjectMetaCreate({ ...valid, annotations: { ...big, b: '' } }, namespaced), [
    { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 262144 bytes', field: 'metadata.annotations' },
  ]);
});

test('finalizers', (t) => {
  t.deepEqual(lines(validateObjectMetaCreate({ ...valid, finalizers: ['orphan', 'foregroundDeletion', 'x/-y'] }, namespaced)), [
    `metadata.finalizers: Invalid value: "x/-y": ${keyNameMsg}`,
    'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","x/-y"]: finalizer orphan and foregroundDeletion cannot be both set',
  ]);
  t.deepEqual(validateObjectMetaCreate({ ...valid, finalizers: ['cleanup'] }, namespaced), []);
  t.deepEqual(lines(validateObjectMetaCreate({ name: 'ns1', finalizers: ['kubernetes', 'cleanup'] }, cluster)), [
    'metadata.finalizers[1]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
  ]);
  t.deepEqual(finalizerWarnings(['z', 'example.com/a', 'orphan', 'b'], ['b']), [
    'metadata.finalizers: "z": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
  ]);
});

test('owner references', (t) => {
  const refs = [
    { apiVersion: 'apps/', kind: '', name: 'a', uid: '' },
    { apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u', controller: true },
    { kind: 'Pod', name: 'p', uid: 'u2', controller: true, apiVersion: 'v1' },
  ];
  t.deepEqual(lines(validateObjectMetaCreate({ ...valid, ownerReferences: refs }, namespaced)), [
    'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
    'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
    'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u","controller":true}: /v1, Kind=Event is disallowed from being an owner',
    'metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/","kind":"","name":"a","uid":""},{"apiVersion":"v1","kind":"Event","name":"e","uid":"u","controller":true},{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for Event/e and Pod/p',
  ]);
});

test('update: immutable and system fields', (t) => {
  t.deepEqual(validateObjectMetaUpdate({ ...valid, generation: 2 }, { ...valid, generation: 1 }, namespaced), []);
  // Same instant, other spelling: not a change.
  t.deepEqual(validateObjectMetaUpdate({ ...valid, creationTimestamp: '2024-01-01T01:00:00+01:00' }, valid, namespaced), []);
  const changed: ObjectMeta = {
    ...valid,
    name: 'w2',
    namespace: 'other',
    uid: 'u2',
    resourceVersion: '',
    generation: 1,
    creationTimestamp: '2025-01-01T00:00:00.000Z',
    deletionTimestamp: '2025-02-01T00:00:00Z',
    deletionGracePeriodSeconds: 30,
  };
  t.deepEqual(lines(validateObjectMetaUpdate(changed, { ...valid, generation: 3 }, namespaced)), [
    'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    'metadata.generation: Invalid value: 1: must not be decremented',
    'metadata.name: Invalid value: "w2": field is immutable',
    'metadata.namespace: Invalid value: "other": field is immutable',
    'metadata.uid: Invalid value: "u2": field is immutable',
    'metadata.creationTimestamp: Invalid value: "2025-01-01T00:00:00Z": field is immutable',
    'metadata.deletionTimestamp: Invalid value: "2025-02-01T00:00:00Z": field is immutable',
    'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable',
  ]);
  t.deepEqual(lines(validateObjectMetaUpdate({ ...valid, uid: undefined }, valid, namespaced)), ['metadata.uid: Invalid value: "": field is immutable']);
});

test('update: no finalizers added while deleting; new metadata still checked', (t) => {
  const deleting = { ...valid, deletionTimestamp: '2025-02-01T00:00:00Z', deletionGracePeriodSeconds: 0 };
  t.deepEqual(lines(validateObjectMetaUpdate({ ...deleting, finalizers: ['b.io/y', 'a.io/x', 'example.com/cleanup'] }, deleting, namespaced)), [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/x", "b.io/y"}',
  ]);
  t.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: [] }, deleting, namespaced), []);
  t.deepEqual(lines(validateObjectMetaUpdate({ ...valid, labels: { '-x': 'y' } }, valid, namespaced)), [
    `metadata.labels: Invalid value: "-x": ${keyNameMsg}`,
  ]);
});
