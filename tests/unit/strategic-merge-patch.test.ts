import test from 'ava';
import { applySimpleStrategicMergePatch } from '../../core/patch/strategic-merge-patch.js';

const ns = { metadata: { name: 'a', labels: { x: '1', y: '2' }, finalizers: ['f'] }, spec: { finalizers: ['kubernetes'] } };

test('a patch without directives merges maps, deletes nulls and replaces lists', (t) => {
  t.deepEqual(applySimpleStrategicMergePatch(ns, { metadata: { labels: { x: null, z: '3' } }, spec: { finalizers: [] } }), {
    metadata: { name: 'a', labels: { y: '2', z: '3' }, finalizers: ['f'] },
    spec: { finalizers: [] },
  });
});

test('directives and merge-strategy lists are left to the full engine', (t) => {
  t.is(applySimpleStrategicMergePatch(ns, { metadata: { $setElementOrder: [] } }), undefined);
  t.is(applySimpleStrategicMergePatch(ns, { $patch: 'replace' }), undefined);
  t.is(applySimpleStrategicMergePatch(ns, { metadata: { finalizers: ['g'] } }), undefined);
  t.is(applySimpleStrategicMergePatch(ns, { metadata: { ownerReferences: [] } }), undefined);
});
