// The RBAC policy index: bindings by user, group and ServiceAccount; ClusterRoleBindings everywhere, RoleBindings in
// their namespace; kube's reasons for missing roles; changes and deletions.
import test from 'ava';
import { RbacPolicyIndex } from '../../../../lib/rbac/rbac-policy-index.js';

const rbac = 'rbac.authorization.k8s.io';
const readPods = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
const getPods = { verb: 'get', isResourceRequest: true, path: '', apiGroup: '', resource: 'pods' };
const alice = { username: 'alice', groups: ['devs'] };

function index(): RbacPolicyIndex {
  const i = new RbacPolicyIndex();
  i.setRole('', 'pod-reader', readPods);
  i.setRole('team-a', 'pod-reader', readPods);
  return i;
}

test('a RoleBinding grants in its namespace only; a ClusterRoleBinding everywhere', (t) => {
  const i = index();
  i.setBinding('team-a', 'b', { apiGroup: rbac, kind: 'Role', name: 'pod-reader' }, [{ kind: 'User', name: 'alice' }]);
  t.true(i.authorize(alice, 'team-a', getPods).allowed);
  t.false(i.authorize(alice, 'team-b', getPods).allowed);
  t.false(i.authorize(alice, '', getPods).allowed);
  i.setBinding('', 'c', { apiGroup: rbac, kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'Group', name: 'devs' }]);
  t.true(i.authorize(alice, 'team-b', getPods).allowed);
  t.true(i.authorize(alice, '', getPods).allowed);
  t.false(i.authorize({ username: 'bob', groups: [] }, 'team-b', getPods).allowed);
});

test('ServiceAccount subjects name the account\'s user, the namespace defaulting to the RoleBinding\'s', (t) => {
  const i = index();
  i.setBinding('team-a', 'b', { apiGroup: rbac, kind: 'Role', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'robot' }]);
  t.true(i.authorize({ username: 'system:serviceaccount:team-a:robot', groups: [] }, 'team-a', getPods).allowed);
  t.false(i.authorize({ username: 'system:serviceaccount:team-b:robot', groups: [] }, 'team-a', getPods).allowed);
  // in a ClusterRoleBinding the namespace is required
  i.setBinding('', 'c', { apiGroup: rbac, kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'robot' }]);
  t.false(i.authorize({ username: 'system:serviceaccount:team-a:robot', groups: [] }, 'team-b', getPods).allowed);
});

test('a binding to a missing role gives kube\'s RBAC reason; rulesFor lists the error', (t) => {
  const i = index();
  i.setBinding('', 'x', { apiGroup: rbac, kind: 'ClusterRole', name: 'gone' }, [{ kind: 'User', name: 'alice' }]);
  i.setBinding('team-a', 'y', { apiGroup: rbac, kind: 'Role', name: 'gone' }, [{ kind: 'User', name: 'alice' }]);
  t.deepEqual(i.authorize(alice, '', getPods), { allowed: false, reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found' });
  t.deepEqual(i.authorize(alice, 'team-a', getPods), {
    allowed: false,
    reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "gone" not found]',
  });
  t.deepEqual(i.authorize({ username: 'bob', groups: [] }, '', getPods), { allowed: false, reason: '' });
  t.deepEqual(i.rulesFor(alice, 'team-a').errors.length, 2);
});

test('changed and deleted bindings and roles take effect', (t) => {
  const i = index();
  i.setBinding('', 'c', { apiGroup: rbac, kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'User', name: 'alice' }]);
  t.true(i.authorize(alice, '', getPods).allowed);
  i.setBinding('', 'c', { apiGroup: rbac, kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'User', name: 'bob' }]);
  t.false(i.authorize(alice, '', getPods).allowed);
  t.true(i.authorize({ username: 'bob', groups: [] }, '', getPods).allowed);
  i.setRole('', 'pod-reader', []);
  t.false(i.authorize({ username: 'bob', groups: [] }, '', getPods).allowed);
  i.setRole('', 'pod-reader', readPods);
  i.deleteBinding('', 'c');
  t.false(i.authorize({ username: 'bob', groups: [] }, '', getPods).allowed);
  t.deepEqual(i.rulesFor({ username: 'bob', groups: [] }, ''), { rules: [], errors: [] });
});
