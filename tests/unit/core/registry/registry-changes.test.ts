// Registry listeners are told which type changed, so that they can act on it alone.
import test from 'ava';
import type { RegistryChange } from '../../../../core/contracts/resource-registry.js';
import { ResourceTypeRegistry } from '../../../../core/registry/resource-registry.js';
import { namespaces, widgetsType } from '../../../helpers/resource-types.js';

test('each change names the type before and after it: added, replaced, removed', (t) => {
  const registry = new ResourceTypeRegistry();
  const changes: RegistryChange[] = [];
  registry.onChange((change) => changes.push(change));
  const widgets = widgetsType({ type: 'object' });
  const widgetsAgain = widgetsType({ type: 'object', description: 'v2' });
  registry.set(widgets);
  registry.set(widgetsAgain);
  registry.remove('example.com', 'widgets');
  registry.remove('example.com', 'widgets'); // nothing left to remove: no change
  t.deepEqual(changes, [{ previous: undefined, current: widgets }, { previous: widgets, current: widgetsAgain }, { previous: widgetsAgain }]);
  t.is(registry.generation, 3);
});

test('a CRD that would shadow a built-in type changes nothing and tells no one', (t) => {
  const registry = new ResourceTypeRegistry();
  registry.set(namespaces);
  let told = 0;
  registry.onChange(() => told++);
  registry.set({ ...namespaces, definedBy: { crd: 'namespaces' } });
  t.is(told, 0);
  t.is(registry.get('', 'namespaces'), namespaces);
});
