import test from 'ava';
import { acceptConvertedObject } from '../../../../core/conversion/converted-object.js';
import { ApiError } from '../../../../core/contracts/api-error.js';
import type { KubeObject } from '../../../../core/contracts/resource-type.js';

const original: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: {
    name: 'w',
    namespace: 'ns',
    uid: 'u-1',
    generation: 2,
    resourceVersion: '7',
    labels: { app: 'a' },
    finalizers: ['example.com/keep'],
    managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'example.com/v1' }],
  },
  spec: { color: 'red' },
};
const desired = 'example.com/v2';
const converted = (edit: (o: any) => void = () => {}) => {
  const o: any = { ...structuredClone(original), apiVersion: desired, spec: { colour: 'red' } };
  edit(o);
  return o;
};
const subject = 'conversion webhook for example.com/v1, Kind=Widget';

function refused(t: any, returned: unknown, message: string | RegExp): void {
  const err = t.throws(() => acceptConvertedObject(original, returned, desired), { instanceOf: ApiError });
  t.is(err?.code, 500);
  t.is(err?.status.reason, undefined);
  if (typeof message === 'string') t.is(err?.message, message);
  else t.regex(err?.message ?? '', message);
}

test('an accepted object keeps the converted content with the original metadata', (t) => {
  const accepted = acceptConvertedObject(original, converted(), desired);
  t.deepEqual(accepted, { apiVersion: desired, kind: 'Widget', metadata: original.metadata, spec: { colour: 'red' } });
  t.not(accepted.metadata, original.metadata, 'the metadata is a copy: the original may be a shared cache object');
});

test('labels and annotations are the webhook; everything else in metadata is restored', (t) => {
  const accepted = acceptConvertedObject(
    original,
    converted((o) => {
      o.metadata.labels = { app: 'b', added: 'yes' };
      o.metadata.annotations = { note: 'n' };
      o.metadata.generation = 42;
      o.metadata.finalizers = [];
      o.metadata.garbage = true;
      delete o.metadata.managedFields;
    }),
    desired,
  );
  t.deepEqual(accepted.metadata, { ...original.metadata, labels: { app: 'b', added: 'yes' }, annotations: { note: 'n' } });
  const dropped = acceptConvertedObject(original, converted((o) => delete o.metadata.labels), desired);
  t.false('labels' in dropped.metadata!, 'labels the webhook left out are gone');
});

test('objects that do not decode', (t) => {
  refused(t, 'x', 'json: cannot unmarshal string into Go value of type map[string]interface {}');
  refused(t, [1], 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  refused(t, null, "Object 'Kind' is missing in 'null'");
  refused(t, { apiVersion: desired }, `Object 'Kind' is missing in '{"apiVersion":"example.com/v2"}'`);
});

test('the group/version and kind must be the desired ones', (t) => {
  refused(t, converted((o) => (o.apiVersion = 'example.com/v1')), `${subject} returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)`);
  refused(t, converted((o) => (o.apiVersion = 'a/b/c')), `${subject} returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received )`);
  refused(t, converted((o) => (o.kind = 'Gadget')), `${subject} returned invalid object at index 0: invalid kind (expected Widget, received Gadget)`);
});

test('name, namespace and uid must not change', (t) => {
  refused(t, converted((o) => (o.metadata.name = 'x')), `${subject} returned invalid object: must have the same name: w != x`);
  refused(t, converted((o) => (o.metadata.namespace = 'other')), `${subject} returned invalid object: must have the same namespace: ns != other`);
  refused(t, converted((o) => delete o.metadata.uid), `${subject} returned invalid object: must have the same UID: u-1 != `);
});

test('metadata kube cannot restore', (t) => {
  const identity = { name: 'w', namespace: 'ns', uid: 'u-1' };
  refused(t, converted((o) => (o.metadata = { ...identity, labels: 'x' })), `${subject} returned invalid metadata: invalid metadata.labels of type string in converted object`);
  refused(t, converted((o) => (o.metadata = { ...identity, annotations: { a: 1 } })), `${subject} returned invalid metadata: metadata.annotations[a] must be a string, but is int64 in converted object`);
  refused(
    t,
    converted((o) => (o.metadata = { ...identity, labels: { app: 'a', k: 'bad value' } })),
    /^conversion webhook for example\.com\/v1, Kind=Widget returned invalid metadata: metadata\.labels: Invalid value: "bad value": a valid label must be/,
  );
  refused(
    t,
    converted((o) => (o.metadata = { ...identity, annotations: { 'bad key': 'x' } })),
    /^conversion webhook for example\.com\/v1, Kind=Widget returned invalid metadata: metadata\.annotation: Invalid value: "bad key": name part must consist/,
  );
});
