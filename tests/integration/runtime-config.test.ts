// The server's runtimeConfig (kube-apiserver's --runtime-config): a disabled built-in group-version or resource is gone
// from discovery (legacy and aggregated), OpenAPI v2 and v3 and the local APIServices, and its paths answer what an
// unknown path answers; CRDs are not subject to it; a configuration kube-apiserver refuses stops the server.
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alwaysAllow, RuntimeConfigError } from '../../index.js';
import { startTestServer, useTestServer, type TestServer } from '../helpers/test-server.js';

// RBAC cannot decide requests with its objects not served: the server asks no one but AlwaysAllow
const server = useTestServer({
  widgetsCrd: true,
  authorizers: [alwaysAllow()],
  config: { runtimeConfig: { 'rbac.authorization.k8s.io/v1': 'false', 'v1/configmaps': 'false' } },
});

const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** What the server answers for a path nothing ever served: what a disabled API must answer too. */
async function unknownPathAnswer(s: TestServer): Promise<{ status: number; body: unknown }> {
  const res = await s.request('GET', '/apis/never.example.com/v1/things');
  return { status: res.status, body: res.body };
}

test('a disabled group is missing from /apis, legacy and aggregated, and its discovery paths are unknown paths', async (t) => {
  const legacy = await server.request('GET', '/apis');
  const groups = legacy.body.groups.map((g: { name: string }) => g.name);
  t.false(groups.includes('rbac.authorization.k8s.io'));
  t.true(groups.includes('coordination.k8s.io'));
  t.true(groups.includes('example.com'));
  const aggregated = await server.request('GET', '/apis', { headers: { accept: aggregatedAccept } });
  t.is(aggregated.body.kind, 'APIGroupDiscoveryList');
  t.false(aggregated.body.items.some((g: { metadata: { name: string } }) => g.metadata.name === 'rbac.authorization.k8s.io'));
  const unknown = await unknownPathAnswer(server);
  t.is(unknown.status, 404);
  for (const path of ['/apis/rbac.authorization.k8s.io', '/apis/rbac.authorization.k8s.io/v1']) {
    const res = await server.request('GET', path);
    t.is(res.status, 404, path);
  }
});

test('a disabled group\'s resources answer 404 as an unknown path does, for reads and writes', async (t) => {
  const unknown = await unknownPathAnswer(server);
  const get = await server.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles');
  t.deepEqual({ status: get.status, body: get.body }, unknown);
  const create = await server.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
    body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [] },
  });
  t.deepEqual({ status: create.status, body: create.body }, unknown);
});

test('a disabled core resource is missing from /api/v1, legacy and aggregated, and answers 404; the rest of v1 is served', async (t) => {
  const legacy = await server.request('GET', '/api/v1');
  const names = legacy.body.resources.map((r: { name: string }) => r.name);
  t.false(names.includes('configmaps'));
  t.true(names.includes('secrets'));
  const aggregated = await server.request('GET', '/api', { headers: { accept: aggregatedAccept } });
  const v1 = aggregated.body.items[0].versions.find((v: { version: string }) => v.version === 'v1');
  const resources = v1.resources.map((r: { resource: string }) => r.resource);
  t.false(resources.includes('configmaps'));
  t.true(resources.includes('secrets'));
  const get = await server.request('GET', '/api/v1/namespaces/default/configmaps');
  const unknown = await server.request('GET', '/api/v1/namespaces/default/nothings');
  t.is(get.status, 404);
  t.deepEqual(get.body, unknown.body);
  t.is((await server.request('GET', '/api/v1/namespaces/default/secrets')).status, 200);
});

test('OpenAPI v2 and v3 leave out what is disabled', async (t) => {
  const v2 = await server.request('GET', '/openapi/v2');
  t.is(v2.status, 200);
  const paths = Object.keys(v2.body.paths);
  t.false(paths.some((p) => p.startsWith('/apis/rbac.authorization.k8s.io/')));
  t.false(paths.some((p) => p.includes('/configmaps')));
  t.true(paths.some((p) => p.includes('/secrets')));
  t.false(Object.keys(v2.body.definitions).some((d) => d.startsWith('io.k8s.api.rbac.v1.')));
  const index = await server.request('GET', '/openapi/v3');
  t.false('apis/rbac.authorization.k8s.io/v1' in index.body.paths);
  t.true('api/v1' in index.body.paths);
  t.is((await server.request('GET', '/openapi/v3/apis/rbac.authorization.k8s.io/v1')).status, 404);
  const core = await server.request('GET', '/openapi/v3/api/v1');
  t.false(Object.keys(core.body.paths).some((p) => p.includes('/configmaps')));
  t.true(Object.keys(core.body.paths).some((p) => p.includes('/secrets')));
});

test('a disabled group-version has no local APIService', async (t) => {
  const res = await server.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices');
  const names = res.body.items.map((a: { metadata: { name: string } }) => a.metadata.name);
  t.false(names.includes('v1.rbac.authorization.k8s.io'));
  t.true(names.includes('v1.coordination.k8s.io'));
  t.true(names.includes('v1.'));
});

/** Starting a server with `runtimeConfig`: the error it stops with. */
async function startError(runtimeConfig: Record<string, string>): Promise<unknown> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-it-runtime-config-'));
  try {
    const s = await startTestServer({ dataDir, storage: 'memory', authorizers: [alwaysAllow()], config: { runtimeConfig } });
    await s.close();
    return undefined;
  } catch (err) {
    return err;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

test('a configuration kube-apiserver refuses stops the server with kube\'s message; a CRD\'s group is unknown to it', async (t) => {
  const refusals: [Record<string, string>, string][] = [
    [{ 'api/all': 'false' }, 'invalid key with only api/all=false'],
    [{ 'example.com/v1': 'false' }, 'unknown api groups example.com'],
    [{ 'rbac.authorization.k8s.io': 'false' }, 'runtime-config invalid key rbac.authorization.k8s.io'],
    [{ 'rbac.authorization.k8s.io/v2': 'false' }, 'group version rbac.authorization.k8s.io/v2 that has not been registered'],
    [{ 'rbac.authorization.k8s.io/v1': 'off' }, 'invalid value of rbac.authorization.k8s.io/v1: off, err: strconv.ParseBool: parsing "off": invalid syntax'],
    [{ 'api/all': 'false', 'apiextensions.k8s.io/v1': 'true', '/v1': 'true' }, 'API group/version apiregistration.k8s.io/v1 must be enabled'],
    [{ 'api/all': 'false', 'apiregistration.k8s.io/v1': 'true' }, 'the namespaces module needs namespaces (v1) served'],
  ];
  for (const [runtimeConfig, message] of refusals) {
    const err = await startError(runtimeConfig);
    t.true(err instanceof RuntimeConfigError, JSON.stringify(runtimeConfig));
    t.is((err as Error | undefined)?.message, message);
  }
});
