import test from 'ava';
import type { KubeObject, ResourceType } from '../../../../core/contracts/resource-type.js';
import { converterFor } from '../../../../core/conversion/converters.js';
import { listToRequestVersion, toRequestVersion, toRequestVersionToRead, toStorageVersion, withReadDefaults } from '../../../../core/conversion/versioned-objects.js';

/** Widgets in v1 (storage, defaults spec.size 1) and v2 (defaults spec.size 2). */
function widgets(conversion?: ResourceType['conversion']): ResourceType {
  const version = (name: string, size: number, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: size } } } } },
  });
  return {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [version('v1', 1, true), version('v2', 2, false)],
    allowUnconditionalUpdate: false,
    verbs: [],
    defaultOnRead: true,
    ...(conversion ? { conversion } : {}),
  } as ResourceType;
}

const stored: KubeObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} };

test('a stored object gets the defaults of the version it is stored in, on a copy', (t) => {
  const rt = widgets();
  t.deepEqual(withReadDefaults(rt, stored).spec, { size: 1 });
  t.deepEqual(stored.spec, {}, 'the stored (possibly shared) object is left alone');
  t.deepEqual(withReadDefaults(rt, { ...stored, apiVersion: 'example.com/v2' }).spec, { size: 2 });
});

test('strategy None: reading in v2 is the stored object, defaulted as stored, under v2; synchronously', (t) => {
  const rt = widgets();
  t.true(converterFor(rt).synchronous);
  const v2 = toRequestVersion(rt, 'v2', stored);
  t.false(v2 instanceof Promise);
  t.deepEqual(v2, { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
  const list = listToRequestVersion(rt, 'v2', [stored, stored]);
  t.false(list instanceof Promise);
  t.deepEqual((list as KubeObject[]).map((o) => o.apiVersion), ['example.com/v2', 'example.com/v2']);
});

test('to read only: the stored object itself when it is in the requested version with no defaults to apply', (t) => {
  const rt = widgets();
  const noDefaults = { ...rt, versions: rt.versions.map((v) => ({ ...v, schema: { type: 'object' } })) } as ResourceType;
  t.is(toRequestVersionToRead(noDefaults, 'v1', stored), stored);
  const v2 = toRequestVersionToRead(noDefaults, 'v2', stored);
  t.not(v2, stored);
  t.deepEqual(v2, { ...stored, apiVersion: 'example.com/v2' });
  const defaulted = toRequestVersionToRead(rt, 'v1', stored);
  t.deepEqual(defaulted, { ...stored, spec: { size: 1 } });
  t.deepEqual(stored.spec, {}, 'the stored (possibly shared) object is left alone');
});

test('writes go to storage in the storage version', (t) => {
  const rt = widgets();
  t.deepEqual(toStorageVersion(rt, { ...stored, apiVersion: 'example.com/v2', spec: { size: 5 } }), { ...stored, spec: { size: 5 } });
});

test('strategy Webhook: objects already in the desired version come back at once, without a call', async (t) => {
  const rt = widgets({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v1'] } });
  const converter = converterFor(rt);
  t.false(converter.synchronous);
  t.is(converterFor(rt), converter, 'one converter per resource type');
  const same = toRequestVersion(rt, 'v1', stored);
  t.false(same instanceof Promise);
  t.deepEqual(same, { ...stored, spec: { size: 1 } });
  const list = listToRequestVersion(rt, 'v1', [stored]);
  t.false(list instanceof Promise);
  // Another version needs the webhook (unreachable here): a promise, rejected with kube's 500.
  const other = toRequestVersion(rt, 'v2', stored);
  t.true(other instanceof Promise);
  const err = await t.throwsAsync(other as Promise<KubeObject>);
  t.regex(err!.message, /^conversion webhook for example\.com\/v1, Kind=Widget failed: Post "https:\/\/127\.0\.0\.1:1\/convert\?timeout=30s": dial tcp 127\.0\.0\.1:1: connect: connection refused$/);
});
