// Aggregated discovery at the front for service-backed APIServices: each backend's resources, read from its
// aggregated discovery (or its legacy APIResourceList when it has none), Current while it answers, Stale with what
// was last read once it stops, Current again when it is back.
import test from 'ava';
import { createCa, issueCert } from '../../plugins/auth/certificates.js';
import { apiService, backendNamespace, routeServiceToBackend, startAggregatedBackend, type TestAggregatedBackend } from '../helpers/aggregated-backend.js';
import { suffix, useTestServer } from '../helpers/test-server.js';

const frontProxyCa = await createCa('front-proxy-ca');
const proxyClient = await issueCert(frontProxyCa, 'front-proxy-client', ['clientAuth'], []);
const front = useTestServer({ storage: 'memory', config: { proxyClient } });

const backends: TestAggregatedBackend[] = [];
test.after.always(async () => {
  await Promise.all(backends.map((b) => b.close()));
});

const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const json = { 'content-type': 'application/json' };

function flunders(group: string) {
  return {
    resource: 'flunders',
    responseKind: { group, version: 'v1', kind: 'Flunder' },
    scope: 'Namespaced',
    singularResource: 'flunder',
    verbs: ['create', 'delete', 'get', 'list', 'watch'],
    shortNames: ['fl'],
    subresources: [{ subresource: 'status', responseKind: { group, version: 'v1', kind: 'Flunder' }, verbs: ['get', 'patch', 'update'] }],
  };
}

/** A backend serving `group`/v1 (its availability check's path answered), routed to from the front through an APIService. */
async function register(): Promise<{ backend: TestAggregatedBackend; group: string }> {
  const backend = await startAggregatedBackend(frontProxyCa.certPem);
  backends.push(backend);
  const service = `api-${suffix()}`;
  const group = `${service}.example.com`;
  backend.handle(`/apis/${group}/v1`, (_req, res) => {
    const list = { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/v1`, resources: [
      { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'] },
      { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get'] },
      { name: 'fischers', singularName: 'fischer', namespaced: false, kind: 'Fischer', verbs: ['get'], shortNames: ['fi'] },
    ] };
    res.writeHead(200, json).end(JSON.stringify(list));
  });
  await routeServiceToBackend(front, backend, service);
  const created = await front.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { body: apiService(group, 'v1', service, { caBundle: backend.caBundle }) });
  if (created.status !== 201) throw new Error(created.text);
  return { backend, group };
}

/** Serves an APIGroupDiscoveryList with the group's flunders (and another group the APIService does not name). */
function serveAggregated(backend: TestAggregatedBackend, group: string): void {
  backend.handle('/apis', (req, res) => {
    if (!req.headers.accept?.includes('as=APIGroupDiscoveryList')) return void res.writeHead(406, json).end('{}');
    const list = {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: [
        { metadata: { name: 'other.example.com' }, versions: [{ version: 'v1', resources: [], freshness: 'Current' }] },
        { metadata: { name: group }, versions: [{ version: 'v1', resources: [flunders(group)], freshness: 'Current' }] },
      ],
    };
    res.writeHead(200, { ...json, etag: '"disco-1"' }).end(JSON.stringify(list));
  });
}

/** The front's aggregated discovery entry of `group`, once `ready` says it is the one awaited. */
async function frontVersions(group: string, ready: (versions: any[]) => boolean): Promise<any[]> {
  return front.waitFor(async () => {
    const res = await front.request('GET', '/apis', { headers: { Accept: aggregatedAccept } });
    const versions = res.body.items?.find((i: any) => i.metadata.name === group)?.versions;
    return versions && ready(versions) ? versions : undefined;
  }, 20_000, `discovery of ${group}`);
}

test('a backend\'s aggregated discovery is merged into the front\'s, Current, read as system:kube-aggregator', async (t) => {
  const { backend, group } = await register();
  serveAggregated(backend, group);
  const versions = await frontVersions(group, (v) => v[0].freshness === 'Current');
  t.deepEqual(versions, [{ version: 'v1', resources: [flunders(group)], freshness: 'Current' }]);
  const read = backend.requests.find((r) => r.url === '/apis')!;
  t.is(read.headers.accept, aggregatedAccept);
  t.is(read.headers['x-remote-user'], 'system:kube-aggregator');
  t.deepEqual(read.clientCert, { commonName: 'front-proxy-client', authorized: true });
  // a group the APIService does not name is not taken from the backend
  const all = await front.request('GET', '/apis', { headers: { Accept: aggregatedAccept } });
  t.false(all.body.items.some((i: any) => i.metadata.name === 'other.example.com'));
});

test('a backend without aggregated discovery (406) is read from its APIResourceList, converted as kube converts it', async (t) => {
  const { backend, group } = await register();
  backend.handle('/apis', (_req, res) => res.writeHead(406, json).end('{}'));
  const versions = await frontVersions(group, (v) => v[0].freshness === 'Current');
  t.deepEqual(versions, [
    {
      version: 'v1',
      resources: [
        {
          resource: 'flunders',
          responseKind: { group: '', version: '', kind: 'Flunder' },
          scope: 'Namespaced',
          singularResource: 'flunder',
          verbs: ['get', 'list'],
          subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Flunder' }, verbs: ['get'] }],
        },
        { resource: 'fischers', responseKind: { group: '', version: '', kind: 'Fischer' }, scope: 'Cluster', singularResource: 'fischer', verbs: ['get'], shortNames: ['fi'] },
      ],
      freshness: 'Current',
    },
  ]);
});

test('a backend that stops is listed Stale with what was last read; back, it is Current again', async (t) => {
  const { backend, group } = await register();
  serveAggregated(backend, group);
  await frontVersions(group, (v) => v[0].freshness === 'Current');

  await backend.stop();
  // an Endpoints change has the availability controller check at once; the APIService turning unavailable has
  // discovery read again
  const service = group.split('.')[0]!;
  const touch = () => front.request('PATCH', `/api/v1/namespaces/${backendNamespace}/endpoints/${service}`, { body: { metadata: { annotations: { touched: suffix() } } }, contentType: 'application/merge-patch+json' });
  await touch();
  const stale = await frontVersions(group, (v) => v[0].freshness === 'Stale');
  t.deepEqual(stale, [{ version: 'v1', resources: [flunders(group)], freshness: 'Stale' }]);
  const legacy = await front.request('GET', `/apis/${group}/v1`);
  t.is(legacy.status, 503);

  await backend.start();
  await touch();
  t.deepEqual(await frontVersions(group, (v) => v[0].freshness === 'Current'), [{ version: 'v1', resources: [flunders(group)], freshness: 'Current' }]);
});

test('a backend that fails its first read is Stale without resources; read again when its APIService changes, then gone with it', async (t) => {
  const { backend, group } = await register();
  backend.handle('/apis', (_req, res) => res.writeHead(200, json).end('not json'));
  await front.waitFor(() => backend.requests.some((r) => r.url === '/apis'), 20_000, 'discovery to be read');
  t.deepEqual(await frontVersions(group, () => true), [{ version: 'v1', freshness: 'Stale' }]);

  serveAggregated(backend, group);
  const labelled = await front.request('PATCH', `/apis/apiregistration.k8s.io/v1/apiservices/v1.${group}`, { body: { metadata: { labels: { touched: 'yes' } } }, contentType: 'application/merge-patch+json' });
  t.is(labelled.status, 200);
  t.deepEqual(await frontVersions(group, (v) => v[0].freshness === 'Current'), [{ version: 'v1', resources: [flunders(group)], freshness: 'Current' }]);

  t.is((await front.request('DELETE', `/apis/apiregistration.k8s.io/v1/apiservices/v1.${group}`)).status, 200);
  await front.waitFor(async () => {
    const res = await front.request('GET', '/apis', { headers: { Accept: aggregatedAccept } });
    return !res.body.items.some((i: any) => i.metadata.name === group);
  }, 10_000, `${group} to leave discovery`);
});
