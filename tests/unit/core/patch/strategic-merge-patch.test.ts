import test from 'ava';
import { smp, type Case } from './strategic-merge-patch-fixtures.js';

const nginx = { name: 'nginx', image: 'nginx-1.0' };

// Merging without directives: lists by their strategy, maps always, null deletes.
const cases: Case[] = [
  {
    title: 'containers merge by name; a new one goes before the live ones the patch does not name (kube docs patch-demo)',
    doc: { spec: { containers: [{ name: 'patch-demo-ctr', image: 'nginx' }], tolerations: [{ key: 'dedicated', effect: 'NoSchedule' }] } },
    patch: { spec: { containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] } },
    want: {
      spec: {
        containers: [
          { name: 'patch-demo-ctr-2', image: 'redis' },
          { name: 'patch-demo-ctr', image: 'nginx' },
        ],
        tolerations: [{ key: 'dedicated', effect: 'NoSchedule' }],
      },
    },
  },
  {
    title: 'a list without patch strategy (tolerations) is replaced (kube docs patch-demo)',
    doc: { spec: { containers: [nginx], tolerations: [{ key: 'dedicated', effect: 'NoSchedule' }] } },
    patch: { spec: { tolerations: [{ key: 'disktype', effect: 'NoSchedule' }] } },
    want: { spec: { containers: [nginx], tolerations: [{ key: 'disktype', effect: 'NoSchedule' }] } },
  },
  {
    title: 'a patched container merges into the live one, which keeps its place',
    doc: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1', args: ['x'] }] } },
    patch: { spec: { containers: [{ name: 'b', image: '2' }] } },
    want: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '2', args: ['x'] }] } },
  },
  {
    title: 'ports merge by their numeric containerPort',
    doc: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443 }] }] } },
    patch: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http' }] }] } },
    want: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443 }] }] } },
  },
  {
    title: 'the order of the patch list wins over the live order (kube: preserve the order from the patch)',
    doc: { spec: { containers: [{ name: '1' }, { name: '2', image: 'b' }, { name: '3' }] } },
    patch: { spec: { containers: [{ name: '3', image: 'c' }, { name: '1', image: 'a' }] } },
    want: { spec: { containers: [{ name: '2', image: 'b' }, { name: '3', image: 'c' }, { name: '1', image: 'a' }] } },
  },
  {
    title: 'metadata.finalizers merge as a set, without duplicates',
    doc: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { finalizers: ['b', 'c', 'c'] } },
    want: { metadata: { finalizers: ['a', 'b', 'c'] } },
  },
  {
    title: 'metadata.ownerReferences merge by uid',
    doc: { metadata: { ownerReferences: [{ uid: 'u1', name: 'x', controller: true }] } },
    patch: { metadata: { ownerReferences: [{ uid: 'u1', controller: null }, { uid: 'u2', name: 'y' }] } },
    want: { metadata: { ownerReferences: [{ uid: 'u1', name: 'x' }, { uid: 'u2', name: 'y' }] } },
  },
  {
    title: 'a CRD list-map with two keys merges items equal on both',
    doc: { spec: { ports: [{ port: 80, protocol: 'TCP', name: 'http' }, { port: 53, protocol: 'UDP' }] } },
    patch: { spec: { ports: [{ port: 80, protocol: 'TCP', name: 'web' }, { port: 80, protocol: 'UDP', name: 'quic' }] } },
    want: {
      spec: {
        ports: [
          { port: 80, protocol: 'TCP', name: 'web' },
          { port: 80, protocol: 'UDP', name: 'quic' },
          { port: 53, protocol: 'UDP' },
        ],
      },
    },
  },
  {
    title: 'a CRD set merges by value, new values first',
    doc: { spec: { tags: ['a', 'b'] } },
    patch: { spec: { tags: ['c', 'a'] } },
    want: { spec: { tags: ['c', 'a', 'b'] } },
  },
  {
    title: 'a primitive merge list keeps the patch order (kube: preserve the order from the patch in a merging int list)',
    doc: { metadata: { finalizers: ['1', '2', '3'] } },
    patch: { metadata: { finalizers: ['3', '1'] } },
    want: { metadata: { finalizers: ['2', '3', '1'] } },
  },
  {
    title: 'an atomic list is replaced',
    doc: { spec: { containers: [{ name: 'c', args: ['a', 'b'] }] } },
    patch: { spec: { containers: [{ name: 'c', args: ['c'] }] } },
    want: { spec: { containers: [{ name: 'c', args: ['c'] }] } },
  },
  {
    title: 'null deletes a field, maps merge',
    doc: { metadata: { labels: { x: '1', y: '2' } }, spec: { nodeSelector: { a: 'b' }, tags: ['t'] } },
    patch: { metadata: { labels: { x: null, z: '3' } }, spec: { nodeSelector: null, absent: null } },
    want: { metadata: { labels: { y: '2', z: '3' } }, spec: { tags: ['t'] } },
  },
  {
    title: 'schemaless subtrees: maps merge, lists are replaced',
    doc: { spec: { extra: { a: { b: 1 }, l: [{ name: 'x' }, { name: 'y' }] } } },
    patch: { spec: { extra: { a: { c: 2 }, l: [{ name: 'y' }] } } },
    want: { spec: { extra: { a: { b: 1, c: 2 }, l: [{ name: 'y' }] } } },
  },
  {
    title: 'a new value is taken without its nulls and its maps carrying $patch',
    doc: { spec: {} },
    patch: { spec: { extra: { keep: 1, gone: null, sub: { $patch: 'delete' }, list: [{ $patch: 'replace' }, { x: 1, y: null }] } } },
    want: { spec: { extra: { keep: 1, list: [{ x: 1 }] } } },
  },
  {
    title: 'a value of another kind replaces the live one',
    doc: { spec: { extra: { a: { b: 1 }, n: 1 } } },
    patch: { spec: { extra: { a: 'flat', n: [1] } } },
    want: { spec: { extra: { a: 'flat', n: [1] } } },
  },
];

for (const c of cases) {
  test(c.title, (t) => {
    t.deepEqual(smp(c.doc, c.patch), c.want);
  });
}

test('neither the object nor the patch is modified', (t) => {
  const doc = { metadata: { finalizers: ['a'] }, spec: { containers: [{ name: 'a', image: '1' }] } };
  const patch = { metadata: { finalizers: ['b'] }, spec: { containers: [{ name: 'a', image: '2' }, { $patch: 'delete', name: 'x' }] } };
  const [docCopy, patchCopy] = [structuredClone(doc), structuredClone(patch)];
  smp(doc, patch);
  t.deepEqual(doc, docCopy);
  t.deepEqual(patch, patchCopy);
});

test('long lists merge in linear time (items indexed by merge key)', (t) => {
  const n = 20_000;
  const live = Array.from({ length: n }, (_, i) => ({ name: `c${i}`, image: 'old' }));
  const items = Array.from({ length: n }, (_, i) => ({ name: `c${n * 1.5 - 1 - i}`, image: 'new' }));
  const order = Array.from({ length: n * 1.5 }, (_, i) => ({ name: `c${n * 1.5 - 1 - i}` }));
  const started = performance.now();
  const out = smp({ spec: { containers: live } }, { spec: { containers: items, '$setElementOrder/containers': order } });
  const elapsed = performance.now() - started;
  const containers = (out.spec as { containers: { name: string; image: string }[] }).containers;
  t.is(containers.length, n * 1.5);
  t.deepEqual(containers[0], { name: `c${n * 1.5 - 1}`, image: 'new' });
  t.deepEqual(containers.at(-1), { name: 'c0', image: 'old' });
  t.true(elapsed < 2000, `took ${elapsed} ms`); // a quadratic scan takes tens of seconds here
});
