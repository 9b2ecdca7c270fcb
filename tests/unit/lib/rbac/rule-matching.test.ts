// kube's RBAC RuleAllows: verbs, API groups, resources with subresources and `*` wildcards, resourceNames, and
// non-resource URLs with a trailing `*`.
import test from 'ava';
import { ruleAllows } from '../../../../lib/rbac/rule-matching.js';
import type { RuleRequest } from '../../../../lib/rbac/policy-rule.js';

const get = (resource: string, extra: Partial<RuleRequest> = {}): RuleRequest => ({ verb: 'get', isResourceRequest: true, path: '', apiGroup: '', resource, ...extra });
const url = (path: string, verb = 'get'): RuleRequest => ({ verb, isResourceRequest: false, path });

test('verb, group and resource must all match; * matches any', (t) => {
  const rule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
  t.true(ruleAllows(get('pods'), rule));
  t.false(ruleAllows(get('pods', { verb: 'delete' }), rule));
  t.false(ruleAllows(get('pods', { apiGroup: 'apps' }), rule));
  t.false(ruleAllows(get('secrets'), rule));
  t.true(ruleAllows(get('widgets', { verb: 'patch', apiGroup: 'example.com' }), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }));
});

test('a subresource is matched as resource/subresource, by */subresource, or by *', (t) => {
  const log = get('pods', { subresource: 'log' });
  t.false(ruleAllows(log, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }));
  t.true(ruleAllows(log, { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }));
  t.true(ruleAllows(log, { verbs: ['get'], apiGroups: [''], resources: ['*/log'] }));
  t.false(ruleAllows(log, { verbs: ['get'], apiGroups: [''], resources: ['*/status'] }));
  t.true(ruleAllows(log, { verbs: ['get'], apiGroups: [''], resources: ['*'] }));
  t.false(ruleAllows(get('pods'), { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }));
});

test('resourceNames allow only requests naming one of them (not a list, not an unnamed create)', (t) => {
  const rule = { verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'] };
  t.true(ruleAllows(get('configmaps', { name: 'one' }), rule));
  t.false(ruleAllows(get('configmaps', { name: 'two' }), rule));
  t.false(ruleAllows(get('configmaps', { verb: 'list' }), rule));
  t.false(ruleAllows(get('configmaps', { verb: 'create' }), rule));
});

test('non-resource URLs match exactly, or by a prefix ending in *; resource rules never match them', (t) => {
  const rule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
  t.true(ruleAllows(url('/healthz'), rule));
  t.false(ruleAllows(url('/healthz/ping'), rule));
  t.true(ruleAllows(url('/apis/apps/v1'), rule));
  t.false(ruleAllows(url('/apis'), rule));
  t.false(ruleAllows(url('/healthz', 'post'), rule));
  t.true(ruleAllows(url('/anything'), { verbs: ['*'], nonResourceURLs: ['*'] }));
  t.false(ruleAllows(url('/api'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }));
  t.false(ruleAllows(get('pods'), { verbs: ['*'], nonResourceURLs: ['*'] }));
});
