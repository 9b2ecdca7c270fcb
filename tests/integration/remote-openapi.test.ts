// OpenAPI at the front for service-backed APIServices: each backend's /openapi/v2 merged into the front's (its paths
// added, conflicting definitions renamed as kube's aggregator renames them), its v3 group-version listed under the
// backend's hash and served as the backend serves it; kept while the backend is down, gone with the APIService.
import test from 'ava';
import { createCa, issueCert } from '../../plugins/auth/certificates.js';
import { apiService, routeServiceToBackend, startAggregatedBackend, type TestAggregatedBackend } from '../helpers/aggregated-backend.js';
import { suffix, useTestServer } from '../helpers/test-server.js';

const frontProxyCa = await createCa('front-proxy-ca');
const proxyClient = await issueCert(frontProxyCa, 'front-proxy-client', ['clientAuth'], []);
const front = useTestServer({ storage: 'memory', config: { proxyClient } });

let backend: TestAggregatedBackend;
test.before(async () => {
  backend = await startAggregatedBackend(frontProxyCa.certPem);
});
test.after.always(async () => {
  await backend?.close();
});

const json = { 'content-type': 'application/json' };
const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });

/** A backend group `<service>.example.com/v1` with flunders, its Swagger spec and its v3 document (hash `hash-1`). */
async function register(): Promise<{ group: string; name: string; v3: string }> {
  const service = `api-${suffix()}`;
  const group = `${service}.example.com`;
  const flunder = `com.example.${service}.v1.Flunder`;
  backend.handle(`/apis/${group}/v1`, (_req, res) => res.writeHead(200, json).end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/v1`, resources: [] })));
  const swagger = {
    swagger: '2.0',
    info: { title: 'backend', version: 'v0' },
    paths: {
      [`/apis/${group}/v1/namespaces/{namespace}/flunders`]: { get: { responses: { '200': { schema: ref(flunder) } } } },
      '/api/v1/namespaces': { get: { description: 'the backend\'s own, not taken', responses: { '200': { schema: ref('Unused') } } } },
    },
    definitions: {
      [flunder]: { type: 'object', properties: { metadata: ref(objectMeta) } },
      [objectMeta]: { type: 'object', description: 'an older ObjectMeta' },
      Unused: { type: 'object' },
    },
  };
  backend.handle('/openapi/v2', (_req, res) => res.writeHead(200, json).end(JSON.stringify(swagger)));
  const v3 = JSON.stringify({ openapi: '3.0.0', info: { title: 'backend', version: 'v0' }, paths: {}, components: { schemas: { [flunder]: { type: 'object' } } } });
  backend.handle('/openapi/v3', (_req, res) => res.writeHead(200, json).end(JSON.stringify({ paths: { [`apis/${group}/v1`]: { serverRelativeURL: `/openapi/v3/apis/${group}/v1?hash=hash-1` } } })));
  backend.handle(`/openapi/v3/apis/${group}/v1`, (_req, res) => res.writeHead(200, json).end(v3));
  await routeServiceToBackend(front, backend, service);
  const created = await front.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { body: apiService(group, 'v1', service, { caBundle: backend.caBundle }) });
  if (created.status !== 201) throw new Error(created.text);
  return { group, name: `v1.${group}`, v3 };
}

const v3Index = async () => (await front.request('GET', '/openapi/v3')).body.paths as Record<string, { serverRelativeURL: string }>;

test.serial('the backend\'s v3 group-version is listed under its hash and served as the backend serves it', async (t) => {
  const { group, v3 } = await register();
  const key = `apis/${group}/v1`;
  const listed = await front.waitFor(async () => (await v3Index())[key], 20_000, `${key} in /openapi/v3`);
  t.is(listed.serverRelativeURL, `/openapi/v3/${key}?hash=hash-1`);
  t.truthy((await v3Index())['api/v1'], 'the front\'s own group-versions are listed too');

  const doc = await front.request('GET', listed.serverRelativeURL);
  t.is(doc.status, 200);
  t.is(doc.text, v3);
  t.is(doc.headers.etag, '"hash-1"');
  t.is(doc.headers['cache-control'], 'public, immutable');
  const stale = await front.request('GET', `/openapi/v3/${key}?hash=old`);
  t.is(stale.status, 301);
  t.is(stale.headers.location, listed.serverRelativeURL);
});

test.serial('the backend\'s Swagger spec is merged into /openapi/v2: its paths added, the front\'s kept, a differing definition renamed', async (t) => {
  const { group } = await register();
  const path = `/apis/${group}/v1/namespaces/{namespace}/flunders`;
  const spec = await front.waitFor(async () => {
    const res = await front.request('GET', '/openapi/v2');
    return res.body.paths[path] ? res.body : undefined;
  }, 20_000, `${path} in /openapi/v2`);
  const flunder = `com.example.${group.split('.')[0]}.v1.Flunder`;
  // Earlier tests' backends carry the same older ObjectMeta: which suffix this one gets depends on the merge order.
  const renamed = /^#\/definitions\/(.+)$/.exec(spec.definitions[flunder].properties.metadata.$ref)?.[1] ?? '';
  t.regex(renamed, new RegExp(`^${objectMeta.replaceAll('.', '\\.')}_v\\d+$`));
  t.deepEqual(spec.definitions[renamed], { type: 'object', description: 'an older ObjectMeta' });
  t.not(spec.definitions[objectMeta].description, 'an older ObjectMeta', 'the front\'s ObjectMeta stays');
  t.not(spec.paths['/api/v1/namespaces'].get.description, 'the backend\'s own, not taken');
  t.is(spec.definitions.Unused, undefined, 'a definition only a dropped path used is left out');
});

test.serial('what was read is kept while the backend is down; the APIService deleted, it is gone', async (t) => {
  const { group, name } = await register();
  const key = `apis/${group}/v1`;
  await front.waitFor(async () => (await v3Index())[key], 20_000, `${key} in /openapi/v3`);
  await backend.stop();
  try {
    const res = await front.request('GET', `/openapi/v3/${key}`);
    t.is(res.status, 200);
  } finally {
    await backend.start();
  }
  t.is((await front.request('DELETE', `/apis/apiregistration.k8s.io/v1/apiservices/${name}`)).status, 200);
  await front.waitFor(async () => !(await v3Index())[key], 10_000, `${key} to leave /openapi/v3`);
  const v2 = await front.request('GET', '/openapi/v2');
  t.is(v2.body.paths[`/apis/${group}/v1/namespaces/{namespace}/flunders`], undefined);
});
