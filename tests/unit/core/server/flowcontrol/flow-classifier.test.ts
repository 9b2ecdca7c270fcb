import test from 'ava';
import type { FlowSchema } from '../../../../../core/contracts/flowcontrol.js';
import { flowDistinguisher, inMatchingOrder, matchFlowSchema } from '../../../../../core/server/flowcontrol/flow-classifier.js';
import { parseRequestInfo } from '../../../../../core/request/request-info.js';

const fs = (name: string, matchingPrecedence: number, rules: NonNullable<FlowSchema['spec']>['rules'], type?: string): FlowSchema => ({
  metadata: { name },
  spec: { priorityLevelConfiguration: { name }, matchingPrecedence, rules, ...(type ? { distinguisherMethod: { type } } : {}) },
});
const all = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true };
const schemas = inMatchingOrder([
  fs('catch-all', 10000, [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [all], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }], 'ByUser'),
  fs('leases-in-ns', 100, [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }], resourceRules: [{ verbs: ['get', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['kube-system'] }] }], 'ByNamespace'),
  fs('status-only', 200, [{ subjects: [{ kind: 'User', user: { name: 'bob' } }], resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['namespaces/status', 'namespaces'], clusterScope: false, namespaces: ['team'] }] }]),
  fs('health', 2, [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz/*'] }] }]),
]);
const request = (method: string, path: string) => parseRequestInfo(method, path, new URLSearchParams());
const sa = { username: 'system:serviceaccount:kube-system:ctrl', groups: ['system:serviceaccounts', 'system:authenticated'] };
const bob = { username: 'bob', groups: ['system:authenticated'] };
const matched = (user: typeof bob, method: string, path: string) => matchFlowSchema(schemas, user, request(method, path))?.metadata?.name;

test('FlowSchemas are tried by matchingPrecedence; subjects, verbs, groups, resources and namespaces must all match', (t) => {
  t.deepEqual(schemas.map((s) => s.metadata?.name), ['health', 'leases-in-ns', 'status-only', 'catch-all']);
  t.is(matched(sa, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l'), 'leases-in-ns');
  t.is(matched(sa, 'DELETE', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l'), 'catch-all', 'verb');
  t.is(matched(sa, 'GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l'), 'catch-all', 'namespace');
  t.is(matched(bob, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l'), 'catch-all', 'subject');
  t.is(matched(bob, 'PUT', '/api/v1/namespaces/team/status'), 'status-only', 'a subresource as resource/subresource; a namespace is its own namespace');
  t.is(matched(bob, 'GET', '/api/v1/namespaces'), 'catch-all', 'a cluster-wide request needs clusterScope');
  t.is(matched(bob, 'GET', '/healthz'), 'health');
  t.is(matched(bob, 'GET', '/readyz/etcd'), 'health', 'a /* suffix matches the paths under it');
  t.is(matched(bob, 'POST', '/healthz'), 'catch-all');
  t.is(matchFlowSchema(schemas, { username: 'system:anonymous', groups: ['system:unauthenticated'] }, request('GET', '/version')), undefined);
});

test('the distinguisher: the user, the namespace, or none', (t) => {
  const info = request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l');
  t.is(flowDistinguisher(schemas[1]!, sa, info), 'kube-system');
  t.is(flowDistinguisher(schemas[3]!, sa, info), sa.username);
  t.is(flowDistinguisher(schemas[0]!, sa, info), '');
});
