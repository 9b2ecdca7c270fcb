import test from 'ava';
import { smp, type Case } from './strategic-merge-patch-fixtures.js';

const nginx = { name: 'nginx', image: 'nginx-1.0' };
const names = (...n: string[]) => n.map((name) => ({ name }));

const cases: Case[] = [
  {
    title: '$patch: replace on a map takes the patch as the whole map',
    doc: { spec: { nodeSelector: { a: '1', b: '2' } } },
    patch: { spec: { nodeSelector: { $patch: 'replace', c: '3' } } },
    want: { spec: { nodeSelector: { c: '3' } } },
  },
  {
    title: '$patch: replace applies to all fields of its map (docs: Map)',
    doc: { spec: { containers: [{ name: 'old' }], volumes: [{ name: 'v' }] } },
    patch: { spec: { $patch: 'replace', containers: [nginx] } },
    want: { spec: { containers: [nginx] } },
  },
  {
    title: '$patch: delete on a map leaves it empty, as kube does',
    doc: { spec: { nodeSelector: { a: '1' }, tags: ['t'] } },
    patch: { spec: { nodeSelector: { $patch: 'delete' } } },
    want: { spec: { nodeSelector: {}, tags: ['t'] } },
  },
  {
    title: '$patch: replace in a list item replaces the whole list (docs: List of Maps)',
    doc: { spec: { containers: [{ name: 'nginx', image: 'nginx-0.9', args: ['x'] }, { name: 'log-tailer' }] } },
    patch: { spec: { containers: [nginx, { $patch: 'replace' }] } },
    want: { spec: { containers: [nginx] } },
  },
  {
    title: 'a list of only $patch: replace empties the list (kube: delete all items from merging list)',
    doc: { spec: { containers: names('1', '2') } },
    patch: { spec: { containers: [{ $patch: 'replace' }] } },
    want: { spec: { containers: [] } },
  },
  {
    title: '$patch: delete removes the item with that merge key (docs)',
    doc: { spec: { containers: [{ name: 'nginx', image: 'nginx-0.9' }, { name: 'log-tailer' }] } },
    patch: { spec: { containers: [nginx, { $patch: 'delete', name: 'log-tailer' }] } },
    want: { spec: { containers: [nginx] } },
  },
  {
    title: '$patch: delete removes every duplicate (kube: delete all duplicate entries)',
    doc: { spec: { containers: [...names('1', '1'), { name: '2', image: 'a' }, ...names('3', '3')] } },
    patch: { spec: { containers: [{ name: '1', $patch: 'delete' }, { name: '3', $patch: 'delete' }] } },
    want: { spec: { containers: [{ name: '2', image: 'a' }] } },
  },
  {
    title: '$retainKeys clears the fields it does not list (volumes: merge,retainKeys)',
    doc: { spec: { volumes: [{ name: 'v', emptyDir: {} }, { name: 'w', emptyDir: {} }] } },
    patch: { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' }, $retainKeys: ['hostPath', 'name'] }] } },
    want: { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }, { name: 'w', emptyDir: {} }] } },
  },
  {
    title: '$retainKeys on a union (docs), nulls need not be listed',
    doc: { spec: { extra: { union: { foo: 'a', other: 'b' } } } },
    patch: { spec: { extra: { union: { $retainKeys: ['another', 'bar'], another: 'd', bar: 'c', foo: null } } } },
    want: { spec: { extra: { union: { another: 'd', bar: 'c' } } } },
  },
  {
    title: '$deleteFromPrimitiveList removes values (docs: finalizers)',
    doc: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'c'] } },
    want: { metadata: { finalizers: ['a'] } },
  },
  {
    title: '$deleteFromPrimitiveList also applies to a list without merge strategy (kube)',
    doc: { spec: { containers: [{ name: 'c', args: ['1', '2', '3'] }] } },
    patch: { spec: { containers: [{ name: 'c', '$deleteFromPrimitiveList/args': ['2', '4'] }] } },
    want: { spec: { containers: [{ name: 'c', args: ['1', '3'] }] } },
  },
  {
    title: '$deleteFromPrimitiveList of an absent list adds nothing (kube)',
    doc: { metadata: { name: 'a' } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] } },
    want: { metadata: { name: 'a' } },
  },
  {
    title: '$setElementOrder orders a primitive list (docs: finalizers)',
    doc: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['b', 'c', 'a'] } },
    want: { metadata: { finalizers: ['b', 'c', 'a'] } },
  },
  {
    title: '$setElementOrder orders a list of maps by merge key (docs: containers)',
    doc: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b' }, { name: 'c' }] } },
    patch: { spec: { '$setElementOrder/containers': names('b', 'c', 'a') } },
    want: { spec: { containers: [{ name: 'b' }, { name: 'c' }, { name: 'a', image: '1' }] } },
  },
  {
    title: '$setElementOrder places the items its patch list adds (as kubectl apply sends)',
    doc: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } },
    patch: { spec: { '$setElementOrder/containers': names('a', 'new', 'b'), containers: [{ name: 'new', image: '2' }] } },
    want: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'new', image: '2' }, { name: 'b', image: '1' }] } },
  },
  {
    title: '$setElementOrder naming an item missing from the list (kube)',
    doc: { spec: { containers: names('1', '3') } },
    patch: { spec: { '$setElementOrder/containers': names('3', '2', '1'), containers: [{ name: '3', image: '3' }, { name: '1', image: '1' }] } },
    want: { spec: { containers: [{ name: '3', image: '3' }, { name: '1', image: '1' }] } },
  },
  {
    title: '$setElementOrder leaves the items it does not name in their live order',
    doc: { spec: { tags: ['a', 'b', 'c'] } },
    patch: { spec: { '$setElementOrder/tags': ['c', 'a'] } },
    want: { spec: { tags: ['b', 'c', 'a'] } },
  },
  {
    title: '$setElementOrder with $deleteFromPrimitiveList (as kubectl apply sends)',
    doc: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: { metadata: { finalizers: ['c', 'a'] } },
  },
];

for (const c of cases) {
  test(c.title, (t) => {
    t.deepEqual(smp(c.doc, c.patch), c.want);
  });
}

test('$patch: delete or replace on the whole object', (t) => {
  const doc = { metadata: { name: 'a' }, spec: { tags: ['t'] } };
  t.deepEqual(smp(doc, { $patch: 'delete' }), {});
  t.deepEqual(smp(doc, { $patch: 'replace', other: 'a', gone: null }), { other: 'a' });
});
