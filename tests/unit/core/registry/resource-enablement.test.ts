import test from 'ava';
import type { ResourceType } from '../../../../core/contracts/resource-type.js';
import { RuntimeConfigError, type RuntimeConfig } from '../../../../core/contracts/runtime-config.js';
import { enabledResourceTypes } from '../../../../core/registry/resource-enablement.js';

/** A built-in type reduced to what the runtime configuration reads. */
function builtin(group: string, plural: string, versions: string[]): ResourceType {
  return {
    group,
    names: { plural, singular: plural, kind: plural, listKind: `${plural}List` },
    scope: 'Namespaced',
    allowUnconditionalUpdate: true,
    verbs: ['get'],
    versions: versions.map((name, i) => ({ name, served: true, storage: i === 0 })),
  };
}

const types = [
  builtin('', 'configmaps', ['v1']),
  builtin('', 'secrets', ['v1']),
  builtin('rbac.authorization.k8s.io', 'roles', ['v1']),
  builtin('example.kapi.dev', 'gadgets', ['v1', 'v1beta1', 'v2alpha1']),
];

/** `resource@version` of what is served under `config`. */
function served(config: RuntimeConfig): string[] {
  return enabledResourceTypes(types, config).flatMap((rt) => rt.versions.filter((v) => v.served).map((v) => `${rt.names.plural}@${v.name}`));
}

function refused(t: import('ava').ExecutionContext, config: RuntimeConfig, message: string): void {
  t.throws(() => enabledResourceTypes(types, config), { instanceOf: RuntimeConfigError, message });
}

const everything = ['configmaps@v1', 'secrets@v1', 'roles@v1', 'gadgets@v1', 'gadgets@v1beta1', 'gadgets@v2alpha1'];

test('without a runtime configuration every built-in version is served', (t) => {
  t.deepEqual(served({}), everything);
});

test('a group-version set to false is no longer served; a bare key means true', (t) => {
  t.deepEqual(served({ 'rbac.authorization.k8s.io/v1': 'false' }), everything.filter((s) => s !== 'roles@v1'));
  t.deepEqual(served({ 'example.kapi.dev/v1beta1': 'false' }), everything.filter((s) => s !== 'gadgets@v1beta1'));
  t.deepEqual(served({ 'api/all': 'false', 'rbac.authorization.k8s.io/v1': '' }), ['roles@v1']);
});

test('the group-version values are Go booleans', (t) => {
  t.deepEqual(served({ 'api/all': 'false', 'rbac.authorization.k8s.io/v1': 'T', '/v1': '1' }), ['configmaps@v1', 'secrets@v1', 'roles@v1']);
  t.deepEqual(served({ 'rbac.authorization.k8s.io/v1': 'FALSE', '/v1': '0' }), ['gadgets@v1', 'gadgets@v1beta1', 'gadgets@v2alpha1']);
});

test('api/ga, api/beta and api/alpha address versions by their form', (t) => {
  t.deepEqual(served({ 'api/beta': 'false', 'api/alpha': 'false' }), ['configmaps@v1', 'secrets@v1', 'roles@v1', 'gadgets@v1']);
  t.deepEqual(served({ 'api/ga': 'false' }), ['gadgets@v1beta1', 'gadgets@v2alpha1']);
});

test('a resource key wins over its group-version, which wins over the api/ keys', (t) => {
  t.deepEqual(served({ 'api/all': 'false', '/v1': 'true', '/v1/secrets': 'false' }), ['configmaps@v1']);
  t.deepEqual(served({ '/v1': 'false', '/v1/secrets': 'true' }), ['secrets@v1', 'roles@v1', 'gadgets@v1', 'gadgets@v1beta1', 'gadgets@v2alpha1']);
});

test('the core group is /v1, v1 or api/v1; api/legacy is ignored', (t) => {
  const withoutCore = ['roles@v1', 'gadgets@v1', 'gadgets@v1beta1', 'gadgets@v2alpha1'];
  t.deepEqual(served({ v1: 'false' }), withoutCore);
  t.deepEqual(served({ 'api/v1': 'false' }), withoutCore);
  t.deepEqual(served({ 'v1/configmaps': 'false' }), everything.filter((s) => s !== 'configmaps@v1'));
  t.deepEqual(served({ 'api/v1/configmaps': 'false' }), everything.filter((s) => s !== 'configmaps@v1'));
  t.deepEqual(served({ 'api/legacy': 'false' }), everything);
});

test('a resource that does not exist is no error, as in kube', (t) => {
  t.deepEqual(served({ '/v1/pods': 'false' }), everything);
});

test('the configurations kube-apiserver refuses, with its messages', (t) => {
  refused(t, { 'api/all': 'false' }, 'invalid key with only api/all=false');
  refused(t, { 'api/all': 'false', 'api/legacy': 'true' }, 'invalid key with only api/all=false');
  refused(t, { apps: 'false' }, 'runtime-config invalid key apps');
  refused(t, { 'a/b/c/d': 'false' }, 'runtime-config invalid key a/b/c/d');
  refused(t, { 'apps/v1': 'false', 'batch/v1': 'true' }, 'unknown api groups apps,batch');
  refused(t, { 'rbac.authorization.k8s.io/v2': 'false' }, 'group version rbac.authorization.k8s.io/v2 that has not been registered');
  refused(t, { '/v2': 'false' }, 'group version v2 that has not been registered');
  refused(t, { 'api/all': 'no' }, 'invalid value api/all=no');
  refused(t, { 'api/beta': '' }, 'invalid value api/beta=');
  refused(t, { 'rbac.authorization.k8s.io/v1': 'yes' }, 'invalid value of rbac.authorization.k8s.io/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax');
  refused(t, { '/v1/ConfigMaps': 'false' }, 'invalid key /v1/ConfigMaps: group/version/resource and resource is always lowercase plural, not "ConfigMaps"');
});
