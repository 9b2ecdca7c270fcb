import test from 'ava';
import { GenerationCache } from '../../../../core/discovery/generation-cache.js';
import { servedGroups } from '../../../../core/discovery/served-groups.js';
import { storageVersionHash } from '../../../../core/discovery/storage-version-hash.js';
import { compareVersionPriority } from '../../../../core/discovery/version-priority.js';
import { ResourceTypeRegistry } from '../../../../core/registry/resource-registry.js';
import type { RemoteAPIService } from '../../../../core/contracts/api-services.js';
import type { ResourceType } from '../../../../core/contracts/resource-type.js';

test('versions sort by Kubernetes version priority (the example of the APIService docs)', (t) => {
  const sorted = ['v1', 'foo10', 'v11alpha2', 'v2', 'v3beta1', 'foo1', 'v12alpha1', 'v10beta3', 'v11beta2', 'v10'].sort(compareVersionPriority);
  t.deepEqual(sorted, ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10']);
});

const served = (group: string, versions: string[], crd: boolean): ResourceType => ({
  group,
  names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
  scope: 'Namespaced',
  allowUnconditionalUpdate: false,
  verbs: ['get'],
  versions: versions.map((name, i) => ({ name, served: true, storage: i === 0 })),
  ...(crd ? { definedBy: { crd: `things.${group}` } } : {}),
});

const remote = (group: string, version: string, groupPriorityMinimum: number, versionPriority: number): RemoteAPIService => ({
  name: `${version}.${group}`,
  group,
  version,
  service: { namespace: 'ns', name: 'svc', port: 443 },
  insecureSkipTLSVerify: true,
  groupPriorityMinimum,
  versionPriority,
});

test("groups sort by their APIServices' groupPriorityMinimum, ties by APIService name, as kube's aggregator lists them", (t) => {
  const registry = new ResourceTypeRegistry();
  for (const rt of [
    served('zeta.io', ['v1'], true),
    served('batch', ['v1'], false),
    served('', ['v1'], false),
    served('apiextensions.k8s.io', ['v1'], false),
    served('admissionregistration.k8s.io', ['v1alpha1', 'v1', 'v1beta1'], false),
    served('apps', ['v1'], false),
    // a CRD group named first alphabetically, whose only version `v2` makes its APIService `v2.alpha.io` sort after `v1.zeta.io`
    served('alpha.io', ['v2'], true),
    served('mixed.io', ['v1'], true),
  ]) {
    registry.set(rt);
  }
  const groups = servedGroups(registry, [remote('metrics.k8s.io', 'v1beta1', 100, 100), remote('first.example.com', 'v1', 20000, 1), remote('mixed.io', 'v2', 1000, 5)]);
  t.deepEqual(
    groups.map((g) => g.name),
    ['first.example.com', '', 'apps', 'batch', 'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'mixed.io', 'zeta.io', 'alpha.io', 'metrics.k8s.io'],
  );
  t.deepEqual(
    groups.find((g) => g.name === 'admissionregistration.k8s.io')!.versions.map((v) => v.version),
    ['v1', 'v1beta1', 'v1alpha1'],
  );
  // the remote v2 (versionPriority 5) comes after the CRD's v1 (100); it lists no resources of its own
  const mixed = groups.find((g) => g.name === 'mixed.io')!.versions;
  t.deepEqual(
    mixed.map((v) => [v.version, v.remote?.name, v.resources.length]),
    [
      ['v1', undefined, 1],
      ['v2', 'v2.mixed.io', 0],
    ],
  );
});

test('a service-backed APIService takes the place of a group-version served here', (t) => {
  const registry = new ResourceTypeRegistry();
  registry.set(served('example.com', ['v1', 'v1beta1'], true));
  const versions = servedGroups(registry, [remote('example.com', 'v1beta1', 1000, 100)])[0]!.versions;
  t.deepEqual(
    versions.map((v) => [v.version, Boolean(v.remote), v.resources.length]),
    [
      ['v1', false, 1],
      ['v1beta1', true, 0],
    ],
  );
});

test('storageVersionHash matches kube-apiserver for core Namespace', (t) => {
  t.is(storageVersionHash('', 'v1', 'Namespace'), 'Q3oi5N2YM8M=');
});

test('the generation cache rebuilds only when the registry changes', (t) => {
  const registry = new ResourceTypeRegistry();
  let builds = 0;
  const cache = new GenerationCache(() => ++builds);
  t.is(cache.get(registry), 1);
  t.is(cache.get(registry), 1);
  registry.remove('example.com', 'nothing');
  t.is(cache.get(registry), 1);
  registry.set({
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    allowUnconditionalUpdate: false,
    verbs: ['get'],
    versions: [{ name: 'v1', served: true, storage: true }],
  });
  t.is(cache.get(registry), 2);
  t.is(cache.get(new ResourceTypeRegistry()), 3);
});

test('the generation cache rebuilds when another source it is given changes, not when an absent one stays absent', (t) => {
  const registry = new ResourceTypeRegistry();
  const apiServices = { generation: 0 };
  let builds = 0;
  const cache = new GenerationCache(() => ++builds);
  t.is(cache.get(registry, apiServices, undefined), 1);
  t.is(cache.get(registry, apiServices, undefined), 1);
  apiServices.generation++;
  t.is(cache.get(registry, apiServices, undefined), 2);
  t.is(cache.get(registry, { generation: 1 }, undefined), 3);
});
