import test from 'ava';
import { DependencyGraph, nodeOf } from '../../../../builtin/garbagecollector/dependency-graph.js';

const widgets = 'example.com/widgets';

function widget(name: string, uid: string, meta: Record<string, unknown> = {}) {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'ns', uid, ...meta } };
}

const ref = (uid: string, blockOwnerDeletion?: boolean) => ({ apiVersion: 'example.com/v1', kind: 'Widget', name: `o-${uid}`, uid, blockOwnerDeletion });

test('a node keeps identity, owner references and deletion state only', (t) => {
  const node = nodeOf(widgets, widget('w', 'u1', { ownerReferences: [ref('o1', true)], deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] }));
  t.deepEqual(node, {
    uid: 'u1',
    resource: widgets,
    namespace: 'ns',
    name: 'w',
    owners: [{ uid: 'o1', apiVersion: 'example.com/v1', kind: 'Widget', name: 'o-o1', blockOwnerDeletion: true }],
    deleting: true,
    deletingDependents: true,
    orphaning: false,
  });
  t.false(nodeOf(widgets, widget('w', 'u2', { finalizers: ['orphan'] }))!.orphaning, 'orphaning only once deleting');
});

test('dependents are indexed by owner uid, whether or not the owner was seen, and follow reference changes', (t) => {
  const graph = new DependencyGraph();
  graph.set(nodeOf(widgets, widget('d1', 'd1', { ownerReferences: [ref('o1')] }))!);
  graph.set(nodeOf(widgets, widget('d2', 'd2', { ownerReferences: [ref('o1'), ref('o2')] }))!);
  t.deepEqual(graph.dependents('o1').map((n) => n.uid), ['d1', 'd2']);
  t.true(graph.hasDependents('o2'));

  graph.set(nodeOf(widgets, widget('d2', 'd2', { ownerReferences: [ref('o2')] }))!);
  t.deepEqual(graph.dependents('o1').map((n) => n.uid), ['d1']);
  graph.delete('d1');
  t.false(graph.hasDependents('o1'));
});

test('an object recreated under the same name displaces the old one', (t) => {
  const graph = new DependencyGraph();
  graph.set(nodeOf(widgets, widget('w', 'old', { ownerReferences: [ref('o1')] }))!);
  const { old, displaced } = graph.set(nodeOf(widgets, widget('w', 'new'))!);
  t.is(old, undefined);
  t.is(displaced?.uid, 'old');
  t.is(graph.get('old'), undefined);
  t.false(graph.hasDependents('o1'));
  t.deepEqual(graph.ofResource(widgets).map((n) => n.uid), ['new']);
});
