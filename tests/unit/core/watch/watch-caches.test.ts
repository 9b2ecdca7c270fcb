// Watch caches follow the registry type by type: one starts when its type is served from kapi's storage and stops when
// no type is served from its keys any more.
import test from 'ava';
import type { ObjectConverter } from '../../../../core/contracts/object-converter.js';
import type { ResourceType } from '../../../../core/contracts/resource-type.js';
import { defaultServerConfig } from '../../../../core/contracts/server-config.js';
import { ResourceTypeRegistry } from '../../../../core/registry/resource-registry.js';
import { WatchCaches } from '../../../../core/watch/watch-caches.js';
import { MemoryKV } from '../../../../plugins/storage/memory/memory-kv.js';
import { widgetsType } from '../../../helpers/resource-types.js';

function setup() {
  const registry = new ResourceTypeRegistry();
  const caches = new WatchCaches(new MemoryKV(), registry, defaultServerConfig.watchCache);
  caches.start();
  return { registry, caches };
}

const widgets = widgetsType({ type: 'object' });
/** Served under its own name, stored under the widgets' keys. */
const widgetViews: ResourceType = { ...widgets, names: { ...widgets.names, plural: 'widgetviews', kind: 'WidgetView' }, storedAs: { group: 'example.com', plural: 'widgets', apiVersion: 'example.com/v1', converter: {} as ObjectConverter } };

test('a type served starts its cache; replaced, it keeps it; removed, the cache stops and a new one starts if it comes back', (t) => {
  const { registry, caches } = setup();
  registry.set(widgets);
  const cache = caches.servedCache(widgets);
  t.truthy(cache);
  registry.set(widgetsType({ type: 'object', description: 'changed' }));
  t.is(caches.servedCache(widgets), cache);
  registry.remove('example.com', 'widgets');
  t.is(caches.servedCache(widgets), undefined);
  registry.set(widgets);
  t.not(caches.servedCache(widgets), cache);
  caches.stop();
});

test('a cache shared by a type stored as another stays while one of them is served', (t) => {
  const { registry, caches } = setup();
  registry.set(widgets);
  registry.set(widgetViews);
  const cache = caches.servedCache(widgets);
  t.is(caches.servedCache(widgetViews), cache);
  registry.remove('example.com', 'widgets');
  t.is(caches.servedCache(widgetViews), cache);
  registry.set({ ...widgets, storage: {} as ResourceType['storage'] }); // served from a storage of its own: no cache of its own
  t.is(caches.servedCache(widgetViews), cache);
  registry.remove('example.com', 'widgetviews');
  registry.remove('example.com', 'widgets');
  registry.set(widgetViews);
  t.not(caches.servedCache(widgetViews), cache);
  caches.stop();
});
