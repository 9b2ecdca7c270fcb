import test from 'ava';
import { PolicyRuleEvaluator } from '../../../../core/audit/policy-rule-evaluator.js';
import { parseRequestInfo } from '../../../../core/request/request-info.js';
import type { AuditPolicyRule } from '../../../../core/contracts/audit.js';

const alice = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const info = (method: string, path: string) => {
  const [p, q] = path.split('?');
  return parseRequestInfo(method, p!, new URLSearchParams(q));
};
/** The level the rule gives the request, or None when it does not match; a null user: authentication failed. */
const level = (rule: Omit<AuditPolicyRule, 'level'>, method: string, path: string, user: typeof alice | null = alice) =>
  new PolicyRuleEvaluator({ rules: [{ level: 'Metadata', ...rule }] }).evaluate(info(method, path), user ?? undefined).level;

test('resources: the group, plural names, *, resource/subresource, */subresource and resource/*', (t) => {
  const pods = (resources: string[]) => ({ resources: [{ group: '', resources }] });
  t.is(level(pods(['pods']), 'GET', '/api/v1/namespaces/a/pods/p'), 'Metadata');
  t.is(level(pods(['pods']), 'GET', '/api/v1/namespaces/a/pods/p/log'), 'None');
  t.is(level(pods(['pods/log']), 'GET', '/api/v1/namespaces/a/pods/p/log'), 'Metadata');
  t.is(level(pods(['*']), 'GET', '/api/v1/namespaces/a/pods/p/log'), 'Metadata');
  t.is(level(pods(['*/status']), 'PUT', '/api/v1/namespaces/a/pods/p/status'), 'Metadata');
  t.is(level(pods(['*/status']), 'PUT', '/api/v1/namespaces/a/pods/p'), 'None');
  t.is(level(pods(['pods/*']), 'GET', '/api/v1/namespaces/a/pods/p/log'), 'Metadata');
  t.is(level(pods(['pods/*']), 'GET', '/api/v1/namespaces/a/pods/p'), 'Metadata');
  t.is(level(pods(['pods']), 'GET', '/apis/example.com/v1/namespaces/a/pods/p'), 'None', 'another group');
  t.is(level({ resources: [{ group: 'example.com' }] }, 'GET', '/apis/example.com/v1/widgets'), 'Metadata', 'no resources: the whole group');
  t.is(level({ resources: [{ group: '', resources: ['pods'], resourceNames: ['p'] }] }, 'GET', '/api/v1/namespaces/a/pods/p'), 'Metadata');
  t.is(level({ resources: [{ group: '', resources: ['pods'], resourceNames: ['p'] }] }, 'GET', '/api/v1/namespaces/a/pods/q'), 'None');
  t.is(level(pods(['pods']), 'GET', '/healthz'), 'None', 'not a resource request');
});

test("namespaces: '' is cluster-scoped; users, groups and verbs must all match", (t) => {
  t.is(level({ namespaces: [''] }, 'GET', '/api/v1/nodes/n'), 'Metadata');
  t.is(level({ namespaces: [''] }, 'GET', '/api/v1/namespaces/a/pods'), 'None');
  t.is(level({ namespaces: ['a'] }, 'GET', '/api/v1/namespaces/a/pods'), 'Metadata');
  t.is(level({ users: ['alice'], verbs: ['list'] }, 'GET', '/api/v1/namespaces/a/pods'), 'Metadata');
  t.is(level({ users: ['alice'], verbs: ['get'] }, 'GET', '/api/v1/namespaces/a/pods'), 'None');
  t.is(level({ userGroups: ['devs'], verbs: ['watch'] }, 'GET', '/api/v1/namespaces/a/pods?watch=true'), 'Metadata');
  t.is(level({ userGroups: ['ops'] }, 'GET', '/api'), 'None');
  t.is(level({ users: ['alice'] }, 'GET', '/api', null), 'None', 'a request that failed authentication has no user');
  t.is(level({ verbs: ['get'] }, 'GET', '/api', null), 'Metadata');
});

test('nonResourceURLs: exact, a prefix with a trailing *, or * alone', (t) => {
  t.is(level({ nonResourceURLs: ['/healthz'] }, 'GET', '/healthz'), 'Metadata');
  t.is(level({ nonResourceURLs: ['/healthz'] }, 'GET', '/healthz/etcd'), 'None');
  t.is(level({ nonResourceURLs: ['/healthz*'] }, 'GET', '/healthz/etcd'), 'Metadata');
  t.is(level({ nonResourceURLs: ['*'] }, 'GET', '/version'), 'Metadata');
  t.is(level({ nonResourceURLs: ['*'] }, 'GET', '/api/v1/namespaces'), 'None');
});

test("the first matching rule decides; omitStages add to the policy's, omitManagedFields defaults to the policy's", (t) => {
  const evaluator = new PolicyRuleEvaluator({
    omitStages: ['RequestReceived'],
    omitManagedFields: true,
    rules: [
      { level: 'None', users: ['bob'] },
      { level: 'RequestResponse', verbs: ['create'], omitStages: ['ResponseStarted'], omitManagedFields: false },
      { level: 'Request' },
      { level: 'Metadata' },
    ],
  });
  const create = evaluator.evaluate(info('POST', '/api/v1/namespaces'), alice);
  t.deepEqual({ ...create, omitStages: [...create.omitStages] }, { level: 'RequestResponse', omitStages: ['RequestReceived', 'ResponseStarted'], omitManagedFields: false });
  const get = evaluator.evaluate(info('GET', '/api/v1/namespaces'), alice);
  t.deepEqual({ ...get, omitStages: [...get.omitStages] }, { level: 'Request', omitStages: ['RequestReceived'], omitManagedFields: true });
  t.is(evaluator.evaluate(info('POST', '/api/v1/namespaces'), { username: 'bob', groups: [] }).level, 'None');
  t.is(new PolicyRuleEvaluator({ rules: [{ level: 'Metadata', users: ['bob'] }] }).evaluate(info('GET', '/api'), alice).level, 'None', 'no rule matches');
});
