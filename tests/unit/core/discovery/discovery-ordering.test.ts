import test from 'ava';
import { GenerationCache } from '../../../../core/discovery/generation-cache.js';
import { compareGroupPriority } from '../../../../core/discovery/group-priority.js';
import { storageVersionHash } from '../../../../core/discovery/storage-version-hash.js';
import { compareVersionPriority } from '../../../../core/discovery/version-priority.js';
import { ResourceTypeRegistry } from '../../../../core/registry/resource-registry.js';

test('versions sort by Kubernetes version priority (the example of the APIService docs)', (t) => {
  const sorted = ['v1', 'foo10', 'v11alpha2', 'v2', 'v3beta1', 'foo1', 'v12alpha1', 'v10beta3', 'v11beta2', 'v10'].sort(compareVersionPriority);
  t.deepEqual(sorted, ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10']);
});

test('groups sort by kube-apiserver group priority, then by name', (t) => {
  const sorted = ['zeta.io', 'batch', '', 'apiextensions.k8s.io', 'admissionregistration.k8s.io', 'apps', 'alpha.io'].sort(compareGroupPriority);
  t.deepEqual(sorted, ['', 'apps', 'batch', 'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'alpha.io', 'zeta.io']);
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
