import test from 'ava';
import { compactForCache } from '../../../../core/watch/compact-object.js';
import type { KubeObject } from '../../../../core/contracts/resource-type.js';

/** A widget as storage holds it: each decode gives fresh strings and fresh `{}` leaves, as JSON.parse does. */
function decoded(name: string): KubeObject {
  return JSON.parse(
    JSON.stringify({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {
        name,
        namespace: 'default',
        creationTimestamp: '2026-11-27T17:56:15Z',
        managedFields: [
          {
            manager: 'kubectl-client-side-apply',
            operation: 'Update',
            apiVersion: 'example.com/v1',
            time: '2026-11-27T17:56:15Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:color': {} } },
          },
        ],
      },
      spec: { color: 'blue' },
    }),
  ) as KubeObject;
}

type Fields = { [key: string]: Fields };
const entryOf = (o: KubeObject) => (o.metadata!.managedFields as { fieldsV1: Fields }[])[0]!;

test('a compacted object encodes exactly as before', (t) => {
  const before = JSON.stringify(decoded('a'));
  t.is(JSON.stringify(compactForCache(decoded('a'))), before);
});

test('equal fieldsV1 become one frozen tree shared by the cached objects', (t) => {
  const a = entryOf(compactForCache(decoded('a'))).fieldsV1;
  const b = entryOf(compactForCache(decoded('b'))).fieldsV1;
  t.is(b, a);
  t.true(Object.isFrozen(a));
  t.true(Object.isFrozen(a['f:metadata']!['f:labels']));
  t.throws(() => {
    a['f:spec']!['f:size'] = {};
  }, { instanceOf: TypeError });
});

test('fieldsV1 that differ keep their own trees, whose leaves are one frozen {}', (t) => {
  const a = entryOf(compactForCache(decoded('a'))).fieldsV1;
  const other = decoded('c');
  entryOf(other).fieldsV1['f:spec']!['f:size'] = {};
  const c = entryOf(compactForCache(other)).fieldsV1;
  t.not(c, a);
  const leaf = a['f:spec']!['f:color'];
  t.deepEqual(leaf, {});
  t.true(Object.isFrozen(leaf));
  t.is(a['f:metadata']!['f:labels']!['.'], leaf);
  t.is(c['f:spec']!['f:size'], leaf);
});

test('a "__proto__" key of fieldsV1 is left alone (assigning it would set the prototype)', (t) => {
  const o = JSON.parse(
    '{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"__proto__":{},"f:a":{}}}]}}',
  ) as KubeObject;
  const fields = entryOf(compactForCache(o)).fieldsV1;
  t.is(Object.getPrototypeOf(fields), Object.prototype);
  t.deepEqual(Object.keys(fields), ['__proto__', 'f:a']);
});
