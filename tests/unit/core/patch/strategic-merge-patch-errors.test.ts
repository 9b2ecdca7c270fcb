import test from 'ava';
import type { MergeModel } from '../../../../schemas/merge-strategy.js';
import { ApiError } from '../../../../core/contracts/api-error.js';
import { applyStrategicMergePatch } from '../../../../core/patch/strategic-merge-patch.js';
import { objectMetaModel, withObjectMeta } from '../../../../schemas/object-meta-model.js';
import { smp, type Json } from './strategic-merge-patch-fixtures.js';

interface ErrorCase {
  title: string;
  doc: Json;
  patch: Json;
  code: number;
  message: string;
}

const live = { spec: { nodeSelector: { a: '1' }, containers: [{ name: 'a' }], tags: ['a'] }, metadata: { finalizers: ['a'] } };
const order = 'The order in patch list:\n[map[image:3 name:3] map[image:1 name:1]]\n doesn\'t match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n';

const cases: ErrorCase[] = [
  {
    title: 'an unknown $patch in a map',
    doc: live,
    patch: { spec: { nodeSelector: { $patch: 'foo', b: '2' } } },
    code: 400,
    message: 'unknown patch type: foo in map: map[$patch:foo b:2]',
  },
  {
    title: '$patch: merge in a map (kube takes it from struct tags only)',
    doc: live,
    patch: { spec: { nodeSelector: { $patch: 'merge' } } },
    code: 400,
    message: 'unknown patch type: merge in map: map[$patch:merge]',
  },
  {
    title: '$patch: merge in a list',
    doc: live,
    patch: { spec: { containers: [{ $patch: 'merge' }] } },
    code: 400,
    message: 'merging lists cannot yet be specified in the patch',
  },
  {
    title: 'a $patch that is not a string in a list',
    doc: live,
    patch: { spec: { containers: [{ name: 'a', $patch: 1 }] } },
    code: 400,
    message: 'unknown patch type: %!s(int64=1) in map: map[$patch:1 name:a]',
  },
  {
    title: 'an item without its merge key (kube: missing merge key should error out)',
    doc: live,
    patch: { spec: { containers: [{ image: 'b' }] } },
    code: 400,
    message: 'map: map[image:b] does not contain declared merge key: name',
  },
  {
    title: '$retainKeys that is not a list',
    doc: live,
    patch: { spec: { nodeSelector: { $retainKeys: 'a' } } },
    code: 400,
    message: 'invalid patch format of retainKeys',
  },
  {
    title: '$retainKeys not listing a field the patch sets',
    doc: live,
    patch: { spec: { nodeSelector: { $retainKeys: ['a'], b: '2' } } },
    code: 400,
    message: 'invalid patch format of retainKeys',
  },
  {
    title: '$deleteFromPrimitiveList without a field',
    doc: live,
    patch: { metadata: { $deleteFromPrimitiveList: ['a'] } },
    code: 400,
    message: 'invalid patch format of primitive list',
  },
  {
    title: '$setElementOrder without a field',
    doc: live,
    patch: { metadata: { $setElementOrder: ['a'] } },
    code: 400,
    message: 'invalid patch format of setElementOrder list',
  },
  {
    title: '$setElementOrder that is not a list',
    doc: live,
    patch: { metadata: { '$setElementOrder/finalizers': 'a' } },
    code: 400,
    message: 'expected a []interface {}, but received a string',
  },
  {
    title: 'a patch list out of the $setElementOrder order (kube)',
    doc: { spec: { containers: [{ name: '1' }, { name: '3' }, { name: '2' }] } },
    patch: { spec: { '$setElementOrder/containers': [{ name: '1' }, { name: '2' }, { name: '3' }], containers: [{ name: '3', image: '3' }, { name: '1', image: '1' }] } },
    code: 400,
    message: order,
  },
  {
    title: 'a list of lists',
    doc: { spec: { tags: [] } },
    patch: { spec: { tags: [['a']] } },
    code: 422,
    message: 'the server rejected our request due to an error in our request',
  },
  {
    title: 'items of different types',
    doc: live,
    patch: { spec: { tags: [1] } },
    code: 400,
    message: 'list element types are not identical: [[a] [1]]',
  },
];

for (const c of cases) {
  test(c.title, (t) => {
    const err = t.throws(() => smp(c.doc, c.patch), { instanceOf: ApiError });
    t.is(err?.code, c.code);
    t.is(err?.message, c.message);
    if (c.code === 400) t.is(err?.reason, 'BadRequest');
  });
}

const listModel = (list: Partial<Extract<MergeModel, { kind: 'list' }>>): MergeModel => ({
  kind: 'struct',
  atomic: false,
  fields: { items: { kind: 'list', listType: 'atomic', keys: [], items: { kind: 'deduced' }, ...list } },
});

test('a model with more than two patch strategies', (t) => {
  const model = listModel({ patchStrategy: 'merge,replace,retainKeys' });
  const err = t.throws(() => applyStrategicMergePatch({ items: ['a'] }, { items: ['b'] }, model), { instanceOf: ApiError });
  t.is(err?.message, 'unexpected patch strategy: [merge replace retainKeys]');
});

test('a merge list of maps without a merge key', (t) => {
  const model = listModel({ patchStrategy: 'merge' });
  const err = t.throws(() => applyStrategicMergePatch({ items: [{ a: 1 }] }, { items: [{ a: 2 }] }, model), { instanceOf: ApiError });
  t.is(err?.message, 'cannot merge lists without merge key for items');
});

test('objectMetaModel carries kube strategies for finalizers and ownerReferences', (t) => {
  t.like(objectMetaModel, {
    kind: 'struct',
    fields: {
      finalizers: { kind: 'list', patchStrategy: 'merge' },
      ownerReferences: { kind: 'list', patchStrategy: 'merge', patchMergeKey: 'uid' },
    },
  });
});

test('a schemaless kind merges ObjectMeta lists and replaces the others', (t) => {
  const ns = { metadata: { name: 'a', finalizers: ['f'] }, spec: { finalizers: ['kubernetes'] } };
  const model = withObjectMeta({ kind: 'deduced' });
  t.deepEqual(applyStrategicMergePatch(ns, { metadata: { finalizers: ['g'], labels: { x: '1' } }, spec: { finalizers: [] } }, model), {
    metadata: { name: 'a', finalizers: ['g', 'f'], labels: { x: '1' } },
    spec: { finalizers: [] },
  });
});
