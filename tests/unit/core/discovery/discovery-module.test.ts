import 'reflect-metadata';
import test from 'ava';
import { discoveryModule } from '../../../../core/discovery/discovery-module.js';
import type { ResourceType } from '../../../../core/contracts/resource-type.js';
import { defaultServerConfig } from '../../../../core/contracts/server-config.js';
import { namespaces, widgetsType } from '../../../helpers/resource-types.js';
import { registryContainer, serveRoutes } from '../../../helpers/route-server.js';

const widgets = widgetsType({ type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } });

const aggregatedAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

const notFound = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server could not find the requested resource',
  reason: 'NotFound',
  details: {},
  code: 404,
};

/** The discovery module in a child container, served by a koa app that dispatches to the registered routes. */
async function serve(types: ResourceType[]) {
  const { c, registry } = registryContainer(types);
  discoveryModule()(c);
  const { host, close } = await serveRoutes(c);
  return {
    registry,
    host,
    get: (path: string, headers: Record<string, string> = {}) => fetch(`http://${host}${path}`, { headers }),
    close,
  };
}

test('/api lists v1 and the address the client used', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  const res = await s.get('/api');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  t.deepEqual(await res.json(), {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: s.host }],
  });
});

test('/api/v1 lists the core resources without apiVersion, as kube does', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  t.deepEqual(await (await s.get('/api/v1')).json(), {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      {
        name: 'namespaces',
        singularName: 'namespace',
        namespaced: false,
        kind: 'Namespace',
        verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['ns'],
        storageVersionHash: 'Q3oi5N2YM8M=',
      },
      { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
    ],
  });
});

test('/apis lists the non-core groups with their preferred version', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  const gv = { groupVersion: 'example.com/v1', version: 'v1' };
  t.deepEqual(await (await s.get('/apis')).json(), {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [{ name: 'example.com', versions: [gv], preferredVersion: gv }],
  });
});

test('/apis/GROUP and /apis/GROUP/VERSION describe the group and its resources', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  const gv = { groupVersion: 'example.com/v1', version: 'v1' };
  t.deepEqual(await (await s.get('/apis/example.com')).json(), {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: 'example.com',
    versions: [gv],
    preferredVersion: gv,
  });
  t.deepEqual(await (await s.get('/apis/example.com/v1')).json(), {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'example.com/v1',
    resources: [
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['wd'],
        categories: ['all'],
        storageVersionHash: 'gIwvi5rymmg=',
      },
      { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'patch', 'update'] },
    ],
  });
});

test('unknown groups and versions are 404 Status', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  for (const path of ['/apis/nope.example.com', '/apis/example.com/v2', '/apis/example.com/v1/extra/path']) {
    const res = await s.get(path);
    t.is(res.status, 404, path);
    t.deepEqual(await res.json(), notFound, path);
  }
});

test('a scale subresource is listed with the autoscaling/v1 Scale kind', async (t) => {
  const scaled: ResourceType = {
    ...widgets,
    versions: [{ ...widgets.versions[0]!, subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } }],
  };
  const s = await serve([scaled]);
  t.teardown(s.close);
  const list = (await (await s.get('/apis/example.com/v1')).json()) as { resources: object[] };
  t.deepEqual(list.resources.slice(1), [
    { name: 'widgets/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
    { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'patch', 'update'] },
  ]);
});

test('versions are ordered by Kubernetes version priority; the storage version hashes the storage version', async (t) => {
  const multi: ResourceType = {
    ...widgets,
    versions: [
      { name: 'v1alpha1', served: true, storage: false },
      { name: 'v1beta1', served: true, storage: true },
      { name: 'v1', served: true, storage: false },
      { name: 'v2', served: false, storage: false },
    ],
  };
  const s = await serve([multi]);
  t.teardown(s.close);
  const group = (await (await s.get('/apis/example.com')).json()) as { versions: { version: string }[]; preferredVersion: { version: string } };
  t.deepEqual(group.versions.map((v) => v.version), ['v1', 'v1beta1', 'v1alpha1']);
  t.deepEqual(group.preferredVersion, { groupVersion: 'example.com/v1', version: 'v1' });
  const list = (await (await s.get('/apis/example.com/v1alpha1')).json()) as { resources: { storageVersionHash?: string }[] };
  t.is(list.resources[0]!.storageVersionHash, '3KMbXL6XZiI=');
  t.is((await s.get('/apis/example.com/v2')).status, 404);
});

test('/apis orders groups as kube-apiserver does: built-in groups by priority, then by name', async (t) => {
  const inGroup = (group: string, custom: boolean): ResourceType => ({ ...widgets, group, definedBy: custom ? { crd: `widgets.${group}` } : undefined });
  const s = await serve([inGroup('zeta.io', true), inGroup('apps', false), inGroup('apiextensions.k8s.io', false), inGroup('alpha.io', true), namespaces]);
  t.teardown(s.close);
  const list = (await (await s.get('/apis')).json()) as { groups: { name: string }[] };
  t.deepEqual(list.groups.map((g) => g.name), ['apps', 'apiextensions.k8s.io', 'alpha.io', 'zeta.io']);
});

test('aggregated discovery of /apis answers kubectl with an APIGroupDiscoveryList', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  const res = await s.get('/apis', { Accept: aggregatedAccept });
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  t.is(res.headers.get('vary'), 'Accept');
  t.is(res.headers.get('cache-control'), 'public');
  t.regex(res.headers.get('etag') ?? '', /^"[0-9A-F]{128}"$/);
  const widgetKind = { group: 'example.com', version: 'v1', kind: 'Widget' };
  t.deepEqual(await res.json(), {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [
      {
        metadata: { name: 'example.com', creationTimestamp: null },
        versions: [
          {
            version: 'v1',
            resources: [
              {
                resource: 'widgets',
                responseKind: widgetKind,
                scope: 'Namespaced',
                singularResource: 'widget',
                verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
                shortNames: ['wd'],
                categories: ['all'],
                subresources: [{ subresource: 'status', responseKind: widgetKind, verbs: ['get', 'patch', 'update'] }],
              },
            ],
            freshness: 'Current',
          },
        ],
      },
    ],
  });
});

test('aggregated discovery of /api in v2beta1 leaves group and version out of built-in response kinds', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  const res = await s.get('/api', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' });
  t.is(res.headers.get('content-type'), 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
  const namespaceKind = { group: '', version: '', kind: 'Namespace' };
  t.deepEqual(await res.json(), {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2beta1',
    metadata: {},
    items: [
      {
        metadata: { creationTimestamp: null },
        versions: [
          {
            version: 'v1',
            resources: [
              {
                resource: 'namespaces',
                responseKind: namespaceKind,
                scope: 'Cluster',
                singularResource: 'namespace',
                verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
                shortNames: ['ns'],
                subresources: [{ subresource: 'status', responseKind: namespaceKind, verbs: ['get', 'patch', 'update'] }],
              },
            ],
            freshness: 'Current',
          },
        ],
      },
    ],
  });
});

test('the first acceptable media type decides between aggregated and legacy discovery', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  const legacyFirst = await s.get('/apis', { Accept: 'application/json, application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
  t.is(((await legacyFirst.json()) as { kind: string }).kind, 'APIGroupList');
  t.is(legacyFirst.headers.get('etag'), null);
  const protobufOnly = await s.get('/apis', { Accept: 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
  t.is(((await protobufOnly.json()) as { kind: string }).kind, 'APIGroupList');
});

test('aggregated discovery answers a matching If-None-Match with 304 until the registry changes', async (t) => {
  const s = await serve([widgets, namespaces]);
  t.teardown(s.close);
  const first = await s.get('/apis', { Accept: aggregatedAccept });
  const etag = first.headers.get('etag')!;
  const cached = await s.get('/apis', { Accept: aggregatedAccept, 'If-None-Match': etag });
  t.is(cached.status, 304);
  t.is(cached.headers.get('etag'), etag);
  t.is(await cached.text(), '');

  s.registry.set({ ...widgets, names: { ...widgets.names, plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' } });
  const changed = await s.get('/apis', { Accept: aggregatedAccept, 'If-None-Match': etag });
  t.is(changed.status, 200);
  t.not(changed.headers.get('etag'), etag);
  const body = (await changed.json()) as { items: { versions: { resources: { resource: string }[] }[] }[] };
  t.deepEqual(body.items[0]!.versions[0]!.resources.map((r) => r.resource), ['gadgets', 'widgets']);
});

test('/version returns the configured version info', async (t) => {
  const s = await serve([]);
  t.teardown(s.close);
  t.deepEqual(await (await s.get('/version')).json(), { ...defaultServerConfig.version });
});

test('with nothing registered, /api/v1 is empty and /apis has no groups', async (t) => {
  const s = await serve([]);
  t.teardown(s.close);
  t.deepEqual(await (await s.get('/api/v1')).json(), { kind: 'APIResourceList', groupVersion: 'v1', resources: [] });
  t.deepEqual(await (await s.get('/apis')).json(), { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
  const aggregated = await (await s.get('/api', { Accept: aggregatedAccept })).json();
  t.deepEqual(aggregated, {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [{ metadata: { creationTimestamp: null }, versions: [{ version: 'v1', freshness: 'Current' }] }],
  });
});
