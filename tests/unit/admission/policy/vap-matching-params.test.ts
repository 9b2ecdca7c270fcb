import test from 'ava';
import { compileMatchResources } from '../../../../admission/policy/compiled-policy.js';
import { matchResources } from '../../../../admission/policy/policy-matcher.js';
import { collectParams } from '../../../../admission/policy/param-collection.js';
import type { ParamSource } from '../../../../admission/policy/param-informers.js';
import type { AdmissionAttributes } from '../../../../core/contracts/admission-attributes.js';
import { widgetAttributes } from '../../../helpers/admission-attributes.js';
import type { KubeObject, ResourceType } from '../../../../core/contracts/resource-type.js';
import type { MatchResources } from '../../../../builtin/admissionregistration/validating-admission-policy-types.js';
import { defaultMatchResources } from '../../../../builtin/admissionregistration/validating-admission-policy-defaults.js';

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return widgetAttributes({ object: { metadata: { name: 'w', namespace: 'ns', labels: { tier: 'web' } } }, ...over }, 'v2');
}

const namespaces = (labels: Record<string, string> | undefined) => ({ lookup: async () => (labels ? { metadata: { name: 'ns', labels } } : undefined) });
const rule = { apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] };
const compiled = (m: MatchResources) => {
  defaultMatchResources(m);
  return compileMatchResources(m);
};

test('resource rules: Equivalent matches another version, Exact does not; resourceNames narrow; exclusions win', async (t) => {
  const ns = namespaces({});
  t.true((await matchResources(compiled({ resourceRules: [rule] }), attrs(), ns)).matches);
  t.false((await matchResources(compiled({ resourceRules: [rule], matchPolicy: 'Exact' }), attrs(), ns)).matches);
  t.false((await matchResources(compiled({ resourceRules: [{ ...rule, resourceNames: ['other'] }] }), attrs(), ns)).matches);
  t.true((await matchResources(compiled({ resourceRules: [{ ...rule, resourceNames: ['other', 'w'] }] }), attrs(), ns)).matches);
  t.false((await matchResources(compiled({ resourceRules: [rule], excludeResourceRules: [{ ...rule, operations: ['*'] }] }), attrs(), ns)).matches);
  t.true((await matchResources(compiled({}), attrs(), ns)).matches, 'no resource rules (a binding): everything');
  t.false((await matchResources(compiled({ resourceRules: [rule] }), attrs({ subresource: 'status' }), ns)).matches, 'no subresources');
});

test('selectors: object labels, namespace labels; a missing namespace is an error only when the rest matches', async (t) => {
  const bySelectors = compiled({ resourceRules: [rule], objectSelector: { matchLabels: { tier: 'web' } }, namespaceSelector: { matchLabels: { env: 'prod' } } });
  t.true((await matchResources(bySelectors, attrs(), namespaces({ env: 'prod' }))).matches);
  t.false((await matchResources(bySelectors, attrs(), namespaces({ env: 'dev' }))).matches);
  t.deepEqual(await matchResources(bySelectors, attrs(), namespaces(undefined)), { matches: false, error: 'namespaces "ns" not found' });
  const other = attrs({ object: { metadata: { name: 'w', labels: { tier: 'db' } } } });
  t.deepEqual(await matchResources(bySelectors, other, namespaces(undefined)), { matches: false });
  t.true((await matchResources(bySelectors, attrs({ namespace: '', resource: { group: 'example.com', version: 'v1', resource: 'widgets' } }), namespaces(undefined))).matches, 'cluster-scoped: namespaceSelector does not apply');
  const sync = matchResources(compiled({ resourceRules: [rule] }), attrs(), namespaces({}));
  t.false(sync instanceof Promise, 'without a namespace selector matching needs no waiting');
});

function source(scope: 'Namespaced' | 'Cluster', objects: KubeObject[] | undefined): ParamSource {
  const map = objects && new Map(objects.map((o) => [o.metadata!.namespace ? `${o.metadata!.namespace}/${o.metadata!.name}` : o.metadata!.name!, o]));
  return { rt: { scope } as ResourceType, objects: async () => map };
}

const pk = { apiVersion: 'params.example.com/v1', kind: 'Limit' };
const param = (name: string, namespace?: string, labels?: Record<string, string>): KubeObject => ({ metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) } });

test('params: none needed, by name (request namespace or paramRef.namespace), by selector, not found', async (t) => {
  const ps = source('Namespaced', [param('a', 'ns'), param('a', 'other', { set: 'x' }), param('b', 'ns', { set: 'x' })]);
  t.deepEqual(await collectParams(undefined, undefined, undefined, 'ns'), { params: [null] }, 'no paramKind');
  t.deepEqual(await collectParams(pk, ps, undefined, 'ns'), { params: [null] }, 'no paramRef');
  t.deepEqual(await collectParams(pk, ps, { name: 'a', parameterNotFoundAction: 'Deny' }, 'ns'), { params: [param('a', 'ns')] });
  t.deepEqual(await collectParams(pk, ps, { name: 'a', namespace: 'other', parameterNotFoundAction: 'Deny' }, 'ns'), { params: [param('a', 'other', { set: 'x' })] });
  t.deepEqual(await collectParams(pk, ps, { selector: { matchLabels: { set: 'x' } }, parameterNotFoundAction: 'Deny' }, 'ns'), { params: [param('b', 'ns', { set: 'x' })] });
  t.deepEqual(await collectParams(pk, ps, { selector: {}, parameterNotFoundAction: 'Deny' }, 'ns'), { params: [param('a', 'ns'), param('b', 'ns', { set: 'x' })] });
  t.deepEqual(await collectParams(pk, ps, { name: 'zzz', parameterNotFoundAction: 'Allow' }, 'ns'), { params: [] });
  t.deepEqual(await collectParams(pk, ps, { name: 'zzz', parameterNotFoundAction: 'Deny' }, 'ns'), { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' });
  t.deepEqual(await collectParams(pk, ps, { name: 'a', parameterNotFoundAction: 'Deny' }, ''), {
    error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources',
  });
});

test('params: cluster-scoped kinds refuse paramRef.namespace; an informer that never synced', async (t) => {
  const cluster = source('Cluster', [param('g')]);
  t.deepEqual(await collectParams(pk, cluster, { name: 'g', parameterNotFoundAction: 'Deny' }, 'ns'), { params: [param('g')] });
  t.deepEqual(await collectParams(pk, cluster, { name: 'g', namespace: 'ns', parameterNotFoundAction: 'Deny' }, 'ns'), {
    error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`',
  });
  t.deepEqual(await collectParams(pk, source('Cluster', undefined), { name: 'g', parameterNotFoundAction: 'Deny' }, 'ns'), {
    error: 'paramKind kind `&ParamKind{APIVersion:params.example.com/v1,Kind:Limit,}` not yet synced to use for admission',
  });
});
