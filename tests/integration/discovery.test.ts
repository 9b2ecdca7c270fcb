/** Discovery documents (legacy and aggregated), /version, and the health endpoints. */
import { createHash } from 'node:crypto';
import test from 'ava';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

/** discovery.StorageVersionHash: base64 of the first 8 bytes of sha256("group/version/kind"). */
function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

test('/api lists the core version', async (t) => {
  const res = await server.request('GET', '/api');
  t.is(res.status, 200);
  t.is(res.body.kind, 'APIVersions');
  t.deepEqual(res.body.versions, ['v1']);
  t.true(Array.isArray(res.body.serverAddressByClientCIDRs));
});

test('/api/v1 lists namespaces', async (t) => {
  const res = await server.request('GET', '/api/v1');
  t.is(res.status, 200);
  t.is(res.body.kind, 'APIResourceList');
  t.is(res.body.groupVersion, 'v1');
  const namespaces = res.body.resources.find((r: { name: string }) => r.name === 'namespaces');
  t.like(namespaces, { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', shortNames: ['ns'] });
  t.deepEqual(namespaces.verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
});

test('/apis lists the CRD group with its preferred version', async (t) => {
  const res = await server.request('GET', '/apis');
  t.is(res.status, 200);
  t.is(res.body.kind, 'APIGroupList');
  const example = res.body.groups.find((g: { name: string }) => g.name === 'example.com');
  t.deepEqual(example, {
    name: 'example.com',
    versions: [{ groupVersion: 'example.com/v1', version: 'v1' }],
    preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
  });
  t.true(res.body.groups.some((g: { name: string }) => g.name === 'apiextensions.k8s.io'));
});

test('/apis/example.com is the APIGroup', async (t) => {
  const res = await server.request('GET', '/apis/example.com');
  t.is(res.status, 200);
  t.like(res.body, { kind: 'APIGroup', apiVersion: 'v1', name: 'example.com', preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } });
  t.deepEqual(res.body.versions, [{ groupVersion: 'example.com/v1', version: 'v1' }]);
});

test('/apis/example.com/v1 describes widgets and widgets/status', async (t) => {
  const res = await server.request('GET', '/apis/example.com/v1');
  t.is(res.status, 200);
  t.like(res.body, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'example.com/v1' });
  const widgets = res.body.resources.find((r: { name: string }) => r.name === 'widgets');
  t.like(widgets, {
    name: 'widgets',
    singularName: 'widget',
    namespaced: true,
    kind: 'Widget',
    shortNames: ['wd', 'wdg'],
    categories: ['all'],
    storageVersionHash: storageVersionHash('example.com', 'v1', 'Widget'),
  });
  t.deepEqual([...widgets.verbs].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  const status = res.body.resources.find((r: { name: string }) => r.name === 'widgets/status');
  t.like(status, { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget' });
  t.deepEqual(status.verbs, ['get', 'patch', 'update']);
});

test('custom resource verbs are listed in the order kube lists them', async (t) => {
  // apiextensions-apiserver's discovery controller lists CR verbs in this fixed order.
  const res = await server.request('GET', '/apis/example.com/v1');
  const widgets = res.body.resources.find((r: { name: string }) => r.name === 'widgets');
  t.deepEqual(widgets.verbs, ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch']);
});

test('unknown groups and versions are 404 in discovery', async (t) => {
  for (const path of ['/apis/nope.example.org', '/apis/example.com/v9', '/apis/example.com/v1/extra/segments']) {
    const res = await server.request('GET', path);
    t.is(res.status, 404, path);
    t.like(res.body, { kind: 'Status', reason: 'NotFound', code: 404 }, path);
  }
});

test('aggregated discovery on /apis', async (t) => {
  const res = await server.request('GET', '/apis', { headers: { accept: aggregatedAccept } });
  t.is(res.status, 200);
  t.is(res.headers['content-type'], aggregatedAccept);
  t.like(res.body, { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
  const example = res.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'example.com');
  t.truthy(example, 'example.com is listed');
  t.is(example.versions.length, 1);
  t.is(example.versions[0].version, 'v1');
  t.is(example.versions[0].freshness, 'Current');
  const widgets = example.versions[0].resources.find((r: { resource: string }) => r.resource === 'widgets');
  t.like(widgets, {
    resource: 'widgets',
    responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
    scope: 'Namespaced',
    singularResource: 'widget',
    shortNames: ['wd', 'wdg'],
    categories: ['all'],
  });
  t.deepEqual([...widgets.verbs].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  t.deepEqual(widgets.subresources, [
    { subresource: 'status', responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' }, verbs: ['get', 'patch', 'update'] },
    { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
  ]);
});

test('aggregated discovery on /api lists the core group', async (t) => {
  const res = await server.request('GET', '/api', { headers: { accept: aggregatedAccept } });
  t.is(res.status, 200);
  t.is(res.headers['content-type'], aggregatedAccept);
  t.is(res.body.kind, 'APIGroupDiscoveryList');
  t.is(res.body.items.length, 1);
  const core = res.body.items[0];
  t.is(core.metadata.name, undefined);
  t.is(core.versions[0].version, 'v1');
  const namespaces = core.versions[0].resources.find((r: { resource: string }) => r.resource === 'namespaces');
  t.like(namespaces, { resource: 'namespaces', scope: 'Cluster', singularResource: 'namespace', responseKind: { kind: 'Namespace' } });
});

test('without the aggregated media type /apis stays the legacy document', async (t) => {
  const res = await server.request('GET', '/apis', { headers: { accept: 'application/json' } });
  t.is(res.body.kind, 'APIGroupList');
});

test('/version reports a 1.32 server', async (t) => {
  const res = await server.request('GET', '/version');
  t.is(res.status, 200);
  t.like(res.body, { major: '1', minor: '32' });
  t.regex(res.body.gitVersion, /^v1\.32\.\d+/);
  for (const field of ['gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']) t.is(typeof res.body[field], 'string', field);
});

test('/readyz?verbose lists every check', async (t) => {
  const res = await server.request('GET', '/readyz?verbose');
  t.is(res.status, 200);
  t.regex(res.headers['content-type'] ?? '', /^text\/plain/);
  const lines = res.text.trimEnd().split('\n');
  t.is(lines[0], '[+]ping ok');
  t.is(lines.at(-1), 'readyz check passed');
  t.true(lines.slice(0, -1).every((l) => /^\[\+\]\S+ ok$/.test(l)), res.text);
});

test('/livez?verbose and /healthz?verbose list their checks', async (t) => {
  for (const endpoint of ['livez', 'healthz']) {
    const res = await server.request('GET', `/${endpoint}?verbose`);
    t.is(res.status, 200);
    const lines = res.text.trimEnd().split('\n');
    t.is(lines[0], '[+]ping ok');
    t.is(lines.at(-1), `${endpoint} check passed`);
  }
});

test('a single check: /livez/ping', async (t) => {
  const res = await server.request('GET', '/livez/ping');
  t.is(res.status, 200);
  t.is(res.text, 'ok');
});

test('?exclude= skips a check, and names what it could not exclude', async (t) => {
  const excluded = await server.request('GET', '/readyz?verbose&exclude=ping');
  t.is(excluded.status, 200);
  t.true(excluded.text.split('\n').includes('[+]ping excluded: ok'), excluded.text);
  const unknown = await server.request('GET', '/readyz?verbose&exclude=nosuchcheck');
  t.is(unknown.status, 200);
  t.true(unknown.text.includes('warn: some health checks cannot be excluded: no matches for "nosuchcheck"'), unknown.text);
});

test('an unknown health check is 404', async (t) => {
  for (const path of ['/readyz/nosuchcheck', '/livez/nosuchcheck', '/healthz/nosuchcheck']) {
    const res = await server.request('GET', path);
    t.is(res.status, 404, path);
  }
});
