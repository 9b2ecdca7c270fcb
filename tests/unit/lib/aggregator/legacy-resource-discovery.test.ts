import test from 'ava';
import { legacyResourceDiscovery } from '../../../../lib/aggregator/legacy-resource-discovery.js';

test('a subresource without its resource in the list gets a parent with an empty response kind', (t) => {
  t.deepEqual(legacyResourceDiscovery([{ name: 'pods/metrics', namespaced: true, kind: '', verbs: ['get'] }]), [
    { resource: 'pods', responseKind: { group: '', version: '', kind: '' }, scope: 'Namespaced', subresources: [{ subresource: 'metrics', responseKind: { group: '', version: '', kind: '' }, verbs: ['get'] }] },
  ]);
});

test('a subresource scoped unlike its resource is an error, as kube says it', (t) => {
  const list = [
    { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['get'] },
    { name: 'nodes/status', namespaced: true, kind: 'Node', verbs: ['get'] },
  ];
  t.throws(() => legacyResourceDiscovery(list), { message: 'Error: Parent nodes (scope: Cluster) and subresource status (scope: Namespaced) scope do not match' });
});
