import 'reflect-metadata';
import test from 'ava';
import type { ResourceType } from '../../../../core/contracts/resource-type.js';
import { OpenApiCache } from '../../../../core/openapi/openapi-cache.js';
import { ResourceTypeRegistry } from '../../../../core/registry/resource-registry.js';
import { namespaces, widgetsType } from '../../../helpers/resource-types.js';

/** Kind `Kind<i>` in group `g<i / 10>.example.com`, with 20 spec properties. */
function kind(i: number, description = 'A kind.'): ResourceType {
  const w = widgetsType({ type: 'object', description, properties: { spec: { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, p) => [`f${p}`, { type: 'string' }])) } } });
  return { ...w, group: `g${Math.floor(i / 10)}.example.com`, names: { ...w.names, plural: `kind${i}s`, singular: `kind${i}`, kind: `Kind${i}`, listKind: `Kind${i}List` } };
}

function cacheOf(types: ResourceType[]) {
  const registry = new ResourceTypeRegistry();
  for (const t of [namespaces, ...types]) registry.set(t);
  return { registry, cache: new OpenApiCache(() => ({ registry }), () => ({ title: 'Kubernetes', version: 'v1.32.0' })) };
}

/** How many turns of the event loop ran (setImmediate callbacks) while `work` was under way. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  const result = work();
  setImmediate(spin);
  await result;
  done = true;
  return turns;
}

test('a changed type rebuilds its group-version\'s document only; the index follows', async (t) => {
  const { registry, cache } = cacheOf([kind(0), kind(10)]);
  const root = JSON.parse((await cache.root()).json) as { paths: Record<string, { serverRelativeURL: string }> };
  const g0 = cache.groupVersion('apis/g0.example.com/v1');
  const g1 = cache.groupVersion('apis/g1.example.com/v1');
  t.truthy(g0);

  registry.set(kind(10, 'Changed.'));
  t.is(cache.groupVersion('apis/g0.example.com/v1'), g0, 'the unchanged group-version keeps its document');
  const changed = cache.groupVersion('apis/g1.example.com/v1')!;
  t.not(changed.hash, g1!.hash);
  t.true(changed.json.includes('"Changed."'));
  const after = JSON.parse((await cache.root()).json) as typeof root;
  t.is(after.paths['apis/g0.example.com/v1']!.serverRelativeURL, root.paths['apis/g0.example.com/v1']!.serverRelativeURL);
  t.is(after.paths['apis/g1.example.com/v1']!.serverRelativeURL, `/openapi/v3/apis/g1.example.com/v1?hash=${changed.hash}`);
});

test('a removed type\'s group-version is gone from the index, its document and the Swagger document', async (t) => {
  const { registry, cache } = cacheOf([kind(0), kind(10)]);
  t.true((await cache.swagger()).json.includes('/apis/g1.example.com/v1/'));
  registry.remove('g1.example.com', 'kind10s');
  t.is(cache.groupVersion('apis/g1.example.com/v1'), undefined);
  t.false(Object.keys((JSON.parse((await cache.root()).json) as { paths: object }).paths).includes('apis/g1.example.com/v1'));
  t.false((await cache.swagger()).json.includes('/apis/g1.example.com/v1/'));
});

test('the documents of many group-versions are built in slices, with the event loop turning in between', async (t) => {
  const { cache } = cacheOf(Array.from({ length: 300 }, (_, i) => kind(i)));
  t.true((await turnsDuring(() => cache.root())) > 2);
  const v2Turns = await turnsDuring(() => cache.swagger());
  t.true(v2Turns > 2, `${v2Turns} turns while the Swagger document was merged`);
});

test('a request for the Swagger document during a rebuild gets the document with the change', async (t) => {
  const { registry, cache } = cacheOf([kind(0)]);
  await cache.swagger();
  cache.refresh();
  registry.set(kind(1));
  t.true((await cache.swagger()).json.includes('/kind1s'));
});
