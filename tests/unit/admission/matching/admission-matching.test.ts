import test from 'ava';
import { ruleMatches, type RuleWithOperations } from '../../../../admission/matching/admission-rules.js';
import { admissionSelector, namespaceSelectorMatches, objectSelectorMatches } from '../../../../admission/matching/selectors.js';
import { admissionRequest } from '../../../../admission/admission-request.js';
import type { AdmissionAttributes } from '../../../../core/contracts/admission-attributes.js';
import { widgetAttributes } from '../../../helpers/admission-attributes.js';
import type { NamespaceLookup } from '../../../../core/contracts/namespace-lookup.js';

function attrs(over: Partial<AdmissionAttributes> & { group?: string; version?: string; res?: string } = {}): AdmissionAttributes {
  const { group = 'example.com', version = 'v1', res = 'widgets', ...rest } = over;
  return widgetAttributes({ kind: { group, version, kind: 'Widget' }, resource: { group, version, resource: res }, ...rest }, version);
}

const rule = (over: RuleWithOperations = {}): RuleWithOperations => ({
  operations: ['CREATE'],
  apiGroups: ['example.com'],
  apiVersions: ['v1'],
  resources: ['widgets'],
  ...over,
});

test('a rule matches by operation, group, version, resource and subresource', (t) => {
  t.true(ruleMatches(rule(), attrs()));
  t.false(ruleMatches(rule(), attrs({ operation: 'UPDATE' })));
  t.true(ruleMatches(rule({ operations: ['*'] }), attrs({ operation: 'DELETE' })));
  t.false(ruleMatches(rule(), attrs({ group: 'other.com' })));
  t.false(ruleMatches(rule(), attrs({ subresource: 'status' })));
  t.true(ruleMatches(rule({ resources: ['widgets/status'] }), attrs({ subresource: 'status' })));
  t.false(ruleMatches(rule({ operations: [] }), attrs()), 'no operations: nothing');
});

test('matchPolicy Exact compares versions; Equivalent matches other versions of the resource', (t) => {
  t.false(ruleMatches(rule(), attrs({ version: 'v2' }), 'Exact'));
  t.true(ruleMatches(rule(), attrs({ version: 'v2' }), 'Equivalent'));
  t.true(ruleMatches(rule({ apiVersions: ['*'] }), attrs({ version: 'v2' }), 'Exact'));
});

test('scope: a Namespace is cluster-scoped although its requests carry its name as namespace', (t) => {
  const ns = attrs({ group: '', res: 'namespaces', namespace: 'team-a', name: 'team-a' });
  const any = { apiGroups: [''], resources: ['namespaces'] };
  t.true(ruleMatches(rule({ ...any, scope: 'Cluster' }), ns));
  t.false(ruleMatches(rule({ ...any, scope: 'Namespaced' }), ns));
  t.true(ruleMatches(rule({ scope: 'Namespaced' }), attrs()));
  t.false(ruleMatches(rule({ scope: 'Cluster' }), attrs()));
  t.true(ruleMatches(rule({ scope: 'Cluster' }), attrs({ namespace: '' })));
});

test('objectSelector matches the new or the old object; deletes by the old one', (t) => {
  const web = admissionSelector({ matchLabels: { tier: 'web' } });
  t.true(objectSelectorMatches(web, attrs()));
  const relabelled = attrs({ operation: 'UPDATE', object: { metadata: { labels: { tier: 'db' } } }, oldObject: { metadata: { labels: { tier: 'web' } } } });
  t.true(objectSelectorMatches(web, relabelled));
  t.false(objectSelectorMatches(web, attrs({ object: { metadata: { labels: { tier: 'db' } } } })));
  t.false(objectSelectorMatches(web, attrs({ operation: 'DELETE', oldObject: { metadata: {} } })));
  t.true(objectSelectorMatches(admissionSelector(undefined), attrs({ object: { metadata: {} } })), 'absent selector: everything');
});

test('namespaceSelector: by the namespace as stored, by the request for namespaces, never exempting cluster-scoped requests', async (t) => {
  const stored: Record<string, Record<string, string>> = { ns: { env: 'prod' }, other: { env: 'dev' } };
  const lookup: NamespaceLookup = { lookup: async (name) => (stored[name] ? { metadata: { name, labels: stored[name] } } : undefined) };
  const prod = admissionSelector({ matchLabels: { env: 'prod' } });
  t.true(await namespaceSelectorMatches(prod, attrs(), lookup));
  t.false(await namespaceSelectorMatches(prod, attrs({ namespace: 'other' }), lookup));
  await t.throwsAsync(namespaceSelectorMatches(prod, attrs({ namespace: 'missing' }), lookup), { message: 'namespaces "missing" not found' });
  t.true(await namespaceSelectorMatches(prod, attrs({ namespace: '' }), lookup), 'cluster-scoped: always');
  const creatingNs = attrs({ group: '', res: 'namespaces', namespace: 'new', name: 'new', object: { metadata: { name: 'new', labels: { env: 'prod' } } } });
  t.true(await namespaceSelectorMatches(prod, creatingNs, lookup), "a namespace being created: its own labels");
});

test('the AdmissionRequest of a delete carries the deleted object as oldObject and no object', (t) => {
  const stored = { metadata: { name: 'w' } };
  const req = admissionRequest(attrs({ operation: 'DELETE', object: stored, oldObject: stored, subresource: '' }));
  t.is(req.object, null);
  t.is(req.oldObject, stored);
  t.regex(req.uid, /^[0-9a-f-]{36}$/);
  t.deepEqual(req.userInfo, { username: 'alice', groups: ['dev'] });
  t.false('subResource' in req);
});
