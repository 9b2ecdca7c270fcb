// kube's escalation check: validation.Covers, BreakdownRule, and the message listing the missing rules compacted.
import test from 'ava';
import { breakdownRule, covers } from '../../../../lib/rbac/rule-coverage.js';
import { compactRuleString, escalationMessage } from '../../../../lib/rbac/rule-text.js';

test('a rule breaks down into one rule per group, resource, verb and name, then per URL and verb', (t) => {
  t.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }), [
    { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
  ]);
  t.deepEqual(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), [
    { nonResourceURLs: ['/a'], verbs: ['get'] },
    { nonResourceURLs: ['/b'], verbs: ['get'] },
  ]);
});

test('owner rules cover what they grant: wildcards, */subresource, names, URL prefixes', (t) => {
  const owner = [
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps', '*/status'] },
    { verbs: ['*'], apiGroups: ['apps'], resources: ['*'] },
    { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['token'] },
    { verbs: ['get'], nonResourceURLs: ['/apis/*'] },
  ];
  t.true(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps', 'services/status'] }]).covered);
  t.true(covers(owner, [{ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments/scale'] }]).covered);
  t.true(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['token'] }]).covered);
  t.false(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]).covered);
  t.true(covers(owner, [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }]).covered);
  const { covered, missing } = covers(owner, [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['configmaps'] }]);
  t.false(covered);
  t.deepEqual(missing, [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }]);
});

test('CompactString and the escalation message are kube\'s, missing verbs of one resource merged', (t) => {
  t.is(compactRuleString({ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }), '{APIGroups:[""], Resources:["pods"], ResourceNames:["a"], Verbs:["get"]}');
  t.is(compactRuleString({ verbs: ['get'], nonResourceURLs: ['/x'] }), '{NonResourceURLs:["/x"], Verbs:["get"]}');
  const { missing } = covers([], [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['secrets', 'configmaps'] }]);
  t.is(
    escalationMessage('alice', ['devs', 'system:authenticated'], missing),
    'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
  );
});
