// The groups of service-backed APIServices in discovery: /apis (legacy and aggregated), /apis/GROUP and
// `kubectl api-versions`, ordered by the APIServices' priorities. A remote group-version's resources come from the
// aggregation layer's RemoteDiscovery (a stand-in of the test's own here); without it the version is listed Stale.
import test from 'ava';
import { join } from 'node:path';
import { describe, removeDir, runKubectl, tempDir } from '../helpers/kapi-process.js';
import { useTestServer, type TestServer } from '../helpers/test-server.js';
import { defineModule, writeKubeconfig } from '../../index.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { RemoteAPIService, RemoteDiscovery } from '../../core/contracts/api-services.js';

/** What a backend of metrics.example.com/v1beta1 would list: one namespaced, read-only resource. */
const fetched: RemoteDiscovery = {
  generation: 1,
  versionDiscovery: (remote: RemoteAPIService) =>
    remote.name === 'v1beta1.metrics.example.com'
      ? {
          version: 'v1beta1',
          resources: [{ resource: 'podmetrics', responseKind: { group: 'metrics.example.com', version: 'v1beta1', kind: 'PodMetrics' }, scope: 'Namespaced', singularResource: 'podmetrics', verbs: ['get', 'list'] }],
          freshness: 'Current',
        }
      : undefined,
};

const server = useTestServer({ storage: 'memory', modules: [defineModule('test-remote-discovery', (c) => c.register(Tokens.RemoteDiscovery, { useValue: fetched }), { replaces: [Tokens.RemoteDiscovery] })] });

const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

function apiService(group: string, version: string, groupPriorityMinimum: number) {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: `${version}.${group}` },
    spec: { group, version, groupPriorityMinimum, versionPriority: 100, insecureSkipTLSVerify: true, service: { namespace: 'monitoring', name: 'metrics' } },
  };
}

async function create(s: TestServer, body: object): Promise<void> {
  const res = await s.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { body });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
}

const groupNames = async (s: TestServer): Promise<string[]> => ((await s.request('GET', '/apis')).body.groups as { name: string }[]).map((g) => g.name);

let home = '';

test.before(async () => {
  home = tempDir('kapi-apiservice-discovery-');
  await create(server, apiService('metrics.example.com', 'v1beta1', 100));
  await create(server, apiService('stale.example.com', 'v1', 100));
  await create(server, apiService('first.example.com', 'v1', 20000));
});

test.after.always(() => removeDir(home));

test.serial('/apis lists the remote groups where their groupPriorityMinimum puts them', async (t) => {
  const groups = await server.waitFor(async () => {
    const names = await groupNames(server);
    return names.includes('metrics.example.com') && names.includes('first.example.com') ? names : undefined;
  });
  t.is(groups[0], 'first.example.com', 'priority 20000 comes before the built-in groups (18000 and less)');
  t.deepEqual(groups.slice(-2), ['stale.example.com', 'metrics.example.com'], 'priority 100 comes last, ties by APIService name (v1.stale… before v1beta1.metrics…)');

  const group = await server.request('GET', '/apis/metrics.example.com');
  t.is(group.status, 200);
  t.deepEqual(group.body, {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: 'metrics.example.com',
    versions: [{ groupVersion: 'metrics.example.com/v1beta1', version: 'v1beta1' }],
    preferredVersion: { groupVersion: 'metrics.example.com/v1beta1', version: 'v1beta1' },
  });
});

test.serial('aggregated discovery lists a remote version as fetched, or Stale without resources', async (t) => {
  const res = await server.request('GET', '/apis', { headers: { Accept: aggregatedAccept } });
  t.is(res.status, 200);
  const items = (res.body as { items: { metadata: { name: string }; versions: object[] }[] }).items;
  t.deepEqual(items.find((i) => i.metadata.name === 'stale.example.com')?.versions, [{ version: 'v1', freshness: 'Stale' }]);
  t.deepEqual(items.find((i) => i.metadata.name === 'metrics.example.com')?.versions, [fetched.versionDiscovery({ name: 'v1beta1.metrics.example.com' } as RemoteAPIService)]);
});

test.serial('kubectl api-versions lists the fetched remote group-version (a Stale one is left out, as client-go does)', async (t) => {
  const kubeconfig = join(home, 'kubeconfig');
  await writeKubeconfig(kubeconfig, { server: server.url, caCertPem: server.ca, token: server.token, clusterName: 'kapi', userName: 'admin', contextName: 'kapi' });
  const res = await runKubectl(['api-versions'], { env: { KUBECONFIG: kubeconfig, HOME: home } });
  t.is(res.code, 0, describe(res));
  const versions = res.stdout.trim().split('\n');
  t.true(versions.includes('metrics.example.com/v1beta1'), res.stdout);
  t.true(versions.includes('apiregistration.k8s.io/v1'), res.stdout);
  t.false(versions.includes('stale.example.com/v1'), res.stdout);
});

test.serial('a deleted APIService takes its group out of /apis', async (t) => {
  const del = await server.request('DELETE', '/apis/apiregistration.k8s.io/v1/apiservices/v1.first.example.com');
  t.is(del.status, 200, del.text);
  const groups = await server.waitFor(async () => {
    const names = await groupNames(server);
    return names.includes('first.example.com') ? undefined : names;
  });
  t.true(groups.includes('metrics.example.com'));
});
