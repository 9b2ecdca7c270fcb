/**
 * Content negotiation over the registered codecs, as kube-apiserver negotiates: YAML requests and responses (objects,
 * lists, Status errors, Tables), Accept lists with q-values and fallbacks, 406 and 415 with kube's texts, watch media
 * types, and the per-codec watch framing. A small extra codec (registered as any plugin would be) encodes some kinds
 * only, to show how a codec that cannot encode a kind is skipped.
 */
import test from 'ava';
import YAML from 'yaml';
import { createApiServer, defaultModules, Tokens, type Codec, type Module } from '../../index.js';
import { createNamespace, createWidget, expectStatus, useTestServer, widget, widgetsPath, type TestResponse } from '../helpers/test-server.js';

/** Encodes Namespaces, Status and PartialObjectMetadata only: widgets have no encoding in it (like protobuf). */
const testMediaType = 'application/vnd.kapi.test';
const testCodec: Codec = {
  mediaType: testMediaType,
  bodyMediaTypes: [testMediaType],
  stream: {
    contentType: 'application/vnd.kapi.test-stream',
    encodeEvent: (type, object) => Buffer.from(JSON.stringify({ type, object, testCodec: true }) + '\n'),
  },
  encodes: (t) => ['Namespace', 'NamespaceList', 'Status', 'PartialObjectMetadata', 'PartialObjectMetadataList'].includes(t.kind),
  encode: (object) => JSON.stringify({ testCodec: object }),
  decode: (raw) => (JSON.parse(raw.toString('utf8')) as { testCodec: unknown }).testCodec,
};
const testCodecModule: Module = (c) => c.register(Tokens.Codec, { useValue: testCodec });

const server = useTestServer({ widgetsCrd: true, modules: [testCodecModule] });

/** The codecs the server has: those `kapi serve` registers, then the test codec. */
const registered: Codec[] = createApiServer({
  modules: [...defaultModules({ storage: 'memory', dataDir: '.', authModules: [] }), testCodecModule],
}).container.resolveAll(Tokens.Codec);
/** kube lists media types as json, yaml, protobuf, cbor: the ones registered, in that order. */
const kubeOrder = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor', testMediaType];
const mediaTypes = kubeOrder.filter((t) => registered.some((c) => c.mediaType === t));
const notAcceptable = `only the following media types are accepted: ${mediaTypes.join(', ')}`;

/** Holds w1 and w2 only (reads); `ns` is for the tests that write. */
let readNs = '';
let ns = '';
test.serial.before(async () => {
  readNs = await createNamespace(server, 'codecs-read');
  ns = await createNamespace(server, 'codecs');
  await createWidget(server, readNs, 'w1', { spec: { color: 'red', replicas: 1 } });
  await createWidget(server, readNs, 'w2', { spec: { color: 'blue', replicas: 2 } });
});

function get(path: string, accept: string): Promise<TestResponse> {
  return server.request('GET', path, { headers: { accept } });
}

/** A YAML response's body (throws when the response is not YAML). */
function yamlBody(res: TestResponse): any {
  if (res.headers['content-type'] !== 'application/yaml') throw new Error(`not YAML: ${res.headers['content-type']} ${res.text.slice(0, 300)}`);
  return YAML.parse(res.text);
}

test('GET and LIST with Accept: application/yaml answer YAML with keys sorted as kube writes them', async (t) => {
  const json = await get(widgetsPath(readNs, 'w1'), 'application/json');
  const one = await get(widgetsPath(readNs, 'w1'), 'application/yaml');
  t.is(one.status, 200, one.text);
  t.is(one.headers['content-type'], 'application/yaml');
  t.deepEqual(yamlBody(one), json.body);
  t.true(one.text.startsWith('apiVersion: example.com/v1\nkind: Widget\nmetadata:\n'), one.text);
  t.regex(one.text, /\n {2}resourceVersion: "\d+"\n/); // a string YAML would read as a number is quoted

  const list = await get(widgetsPath(readNs), 'application/yaml');
  t.is(list.status, 200, list.text);
  const body = yamlBody(list);
  t.is(body.kind, 'WidgetList');
  t.deepEqual(body.items.map((i: any) => i.metadata.name), ['w1', 'w2']);
  t.regex(list.text, /\nitems:\n- apiVersion: example\.com\/v1\n/); // sequences not indented under their key, as go-yaml writes
});

test('POST and PUT with Content-Type: application/yaml, answered in YAML', async (t) => {
  const rawBody = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: from-yaml\nspec:\n  color: teal   # a comment\n  replicas: 4\n';
  const created = await server.request('POST', widgetsPath(ns), { rawBody, contentType: 'application/yaml', headers: { accept: 'application/yaml' } });
  t.is(created.status, 201, created.text);
  const obj = yamlBody(created);
  t.like(obj, { kind: 'Widget', metadata: { name: 'from-yaml' }, spec: { color: 'teal', replicas: 4 } });

  const update = YAML.stringify({ ...obj, spec: { color: 'navy', replicas: 5 } });
  const updated = await server.request('PUT', widgetsPath(ns, 'from-yaml'), { rawBody: update, contentType: 'application/yaml; charset=utf-8' });
  t.is(updated.status, 200, updated.text);
  t.like(updated.body, { spec: { color: 'navy', replicas: 5 } }); // no Accept: JSON
  t.is(updated.headers['content-type'], 'application/json');
});

test('a YAML body with more than one document is 400 for a single-object endpoint', async (t) => {
  const rawBody = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: multi\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: multi2\n';
  const res = await server.request('POST', widgetsPath(ns), { rawBody, contentType: 'application/yaml' });
  expectStatus(t, res, { code: 400, reason: 'BadRequest', message: 'error converting YAML to JSON: yaml: a single YAML document is required, found 2 documents' });
  t.is((await get(widgetsPath(ns, 'multi'), 'application/json')).status, 404);
});

test('errors are Status objects in YAML when Accept asks for YAML', async (t) => {
  const missing = await get(widgetsPath(ns, 'nope'), 'application/yaml');
  t.is(missing.status, 404);
  t.deepEqual(yamlBody(missing), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'widgets.example.com "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', group: 'example.com', kind: 'widgets' },
    code: 404,
  });

  const invalid = await server.request('POST', widgetsPath(ns), { body: widget('bad', { spec: { color: 'red', replicas: -1 } }), headers: { accept: 'application/yaml' } });
  t.is(invalid.status, 422, invalid.text);
  t.like(yamlBody(invalid), { kind: 'Status', reason: 'Invalid', code: 422 });

  // Before authentication too: a 401 is negotiated like any error.
  const unauthorized = await server.request('GET', widgetsPath(ns), { token: 'wrong', headers: { accept: 'application/yaml' } });
  t.is(unauthorized.status, 401);
  t.like(yamlBody(unauthorized), { kind: 'Status', reason: 'Unauthorized', code: 401 });
});

test('a Table in YAML', async (t) => {
  const res = await get(widgetsPath(readNs), 'application/yaml;as=Table;v=v1;g=meta.k8s.io');
  t.is(res.status, 200, res.text);
  t.is(res.headers['content-type'], 'application/yaml;as=Table;v=v1;g=meta.k8s.io');
  const table = YAML.parse(res.text);
  t.like(table, { kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
  t.deepEqual(table.rows.map((r: any) => r.cells.slice(0, 3)), [['w1', 'red', 1], ['w2', 'blue', 2]]);
});

test('Accept lists: q-values, specificity, wildcards and parameters pick the codec', async (t) => {
  const cases: [string, string][] = [
    ['application/yaml;q=0.5, application/json', 'application/json'],
    ['text/html, application/yaml;q=0.1', 'application/yaml'],
    ['*/*;q=0.8, application/yaml', 'application/yaml'],
    ['application/*', 'application/json'],
    ['*/*', 'application/json'],
    ['*', 'application/json'],
    ['application/json;charset=utf-8', 'application/json'],
    ['application/yaml; charset=utf-8', 'application/yaml'],
    ['application/json;pretty=1', 'application/json'],
    // stream=watch is accepted outside watches for codecs with a stream form; YAML has none, so it is skipped.
    ['application/json;stream=watch', 'application/json'],
    ['application/yaml;stream=watch, application/json', 'application/json'],
    ['application/json;stream=other, application/yaml', 'application/yaml'],
    // A conversion kube cannot do is skipped for the next range.
    ['application/yaml;as=Table;v=v9;g=meta.k8s.io, application/yaml', 'application/yaml'],
    // The test codec cannot encode widgets, so it is skipped like protobuf for custom resources.
    [`${testMediaType}, application/json`, 'application/json'],
    ['application/vnd.kubernetes.protobuf, application/json', 'application/json'],
  ];
  for (const [accept, expected] of cases) {
    const res = await get(widgetsPath(readNs, 'w1'), accept);
    t.is(res.status, 200, `${accept}: ${res.text}`);
    t.is(res.headers['content-type'], expected, accept);
  }
});

test('a codec serves the kinds it encodes; conversions are checked against it too', async (t) => {
  const nsRes = await get(`/api/v1/namespaces/${ns}`, `${testMediaType}, application/json`);
  t.is(nsRes.status, 200, nsRes.text);
  t.is(nsRes.headers['content-type'], testMediaType);
  t.like(JSON.parse(nsRes.text), { testCodec: { kind: 'Namespace', metadata: { name: ns } } });

  // PartialObjectMetadata has an encoding in the test codec, a Table is only ever JSON or YAML (as in kube).
  const partial = await get(widgetsPath(ns), `${testMediaType};as=PartialObjectMetadataList;v=v1;g=meta.k8s.io`);
  t.is(partial.status, 200, partial.text);
  t.is(partial.headers['content-type'], `${testMediaType};as=PartialObjectMetadataList;v=v1;g=meta.k8s.io`);
  t.like(JSON.parse(partial.text), { testCodec: { kind: 'PartialObjectMetadataList' } });
  const table = await get(widgetsPath(ns), `${testMediaType};as=Table;v=v1;g=meta.k8s.io`);
  t.is(table.status, 406);
});

test('nothing acceptable is 406 with kube\'s text listing every media type', async (t) => {
  for (const accept of ['text/html', 'application/xml, text/plain;q=0.5', 'application/json;as=Table;v=v9;g=meta.k8s.io', 'application/yaml;as=Foo;v=v1;g=meta.k8s.io']) {
    const res = await get(widgetsPath(readNs), accept);
    // When no codec can write the Status either, it is written as JSON (kube's WriteRawJSON).
    t.is(res.headers['content-type'], 'application/json', accept);
    expectStatus(t, res, { code: 406, reason: 'NotAcceptable', message: notAcceptable });
  }
});

test('a codec the client names alone that cannot encode the kind: 406, with the Status in that codec', async (t) => {
  const res = await get(widgetsPath(readNs, 'w1'), testMediaType);
  t.is(res.status, 406);
  t.is(res.headers['content-type'], testMediaType); // kube's ErrorNegotiated: the Status is encodable there
  t.like(JSON.parse(res.text), { testCodec: { kind: 'Status', reason: 'NotAcceptable', code: 406, message: notAcceptable } });
});

test('a body in a media type no codec decodes is 415 listing the body media types', async (t) => {
  const res = await server.request('POST', widgetsPath(ns), { rawBody: JSON.stringify(widget('x')), contentType: 'text/plain' });
  expectStatus(t, res, { code: 415, reason: 'UnsupportedMediaType', message: `the body of the request was in an unknown format - accepted media types include: ${mediaTypes.join(', ')}` });
  // A body in the test codec is decoded by it.
  const viaTest = await server.request('POST', widgetsPath(ns), { rawBody: JSON.stringify({ testCodec: widget('via-test') }), contentType: testMediaType });
  t.is(viaTest.status, 201, viaTest.text);
  t.is(viaTest.body.metadata.name, 'via-test');
});

test('a PATCH in an unknown media type is 415 listing the patch types, apply in each codec\'s media type', async (t) => {
  const applyTypes = ['application/apply-patch+yaml', 'application/apply-patch+cbor'].filter((a) => registered.some((c) => c.applyPatchMediaType === a));
  const res = await server.request('PATCH', widgetsPath(readNs, 'w1'), { rawBody: '{}', contentType: 'application/apply-patch+json' });
  expectStatus(t, res, {
    code: 415,
    reason: 'UnsupportedMediaType',
    message: `the body of the request was in an unknown format - accepted media types include: ${['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', ...applyTypes].join(', ')}`,
  });
});

test('server-side apply with a YAML body', async (t) => {
  const rawBody = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: applied\nspec:\n  color: plum\n  replicas: 2\n';
  const res = await server.request('PATCH', `${widgetsPath(ns, 'applied')}?fieldManager=yaml-test`, { rawBody, contentType: 'application/apply-patch+yaml', headers: { accept: 'application/yaml' } });
  t.is(res.status, 201, res.text);
  t.like(yamlBody(res), { metadata: { name: 'applied', managedFields: [{ manager: 'yaml-test', operation: 'Apply' }] }, spec: { color: 'plum' } });
});

test('DeleteOptions in a YAML body; a body in an unknown media type is 415', async (t) => {
  await createWidget(server, ns, 'del');
  const dryRun = await server.request('DELETE', widgetsPath(ns, 'del'), { rawBody: 'apiVersion: v1\nkind: DeleteOptions\ndryRun: [All]\n', contentType: 'application/yaml' });
  t.is(dryRun.status, 200, dryRun.text);
  t.is((await get(widgetsPath(ns, 'del'), 'application/json')).status, 200, 'a dry-run delete keeps the object');

  const unknown = await server.request('DELETE', widgetsPath(ns, 'del'), { rawBody: 'dryRun: [All]', contentType: 'text/plain' });
  expectStatus(t, unknown, { code: 415, reason: 'UnsupportedMediaType' });
  t.is((await get(widgetsPath(ns, 'del'), 'application/json')).status, 200);
});

test('a watch asking only for YAML is 406 listing the watch media types (kube has no YAML stream), in YAML', async (t) => {
  // `<type>;stream=watch`, or the stream's own media type where it differs (application/cbor-seq), as kube lists them.
  const stream = kubeOrder
    .map((type) => registered.find((c) => c.mediaType === type && c.stream))
    .flatMap((c) => (c ? [c.stream!.contentType.split(';')[0] === c.mediaType ? `${c.mediaType};stream=watch` : c.stream!.contentType] : []));
  const message = `only the following media types are accepted: ${stream.join(', ')}`;
  for (const accept of ['application/yaml', 'application/yaml, application/json']) {
    const res = await get(`${widgetsPath(ns)}?watch=true`, accept);
    t.is(res.status, 406, accept);
    t.like(yamlBody(res), { kind: 'Status', reason: 'NotAcceptable', message });
  }
  // An error Status is never converted: a range asking for a Table is skipped for it, and nothing is left but JSON.
  const table = await get(`${widgetsPath(ns)}?watch=true`, 'application/yaml;as=Table;v=v1;g=meta.k8s.io');
  t.is(table.headers['content-type'], 'application/json');
  expectStatus(t, table, { code: 406, reason: 'NotAcceptable', message });
});

test('a watch with application/json;stream=watch streams JSON lines with Content-Type application/json', async (t) => {
  const w = await server.watch(`${widgetsPath(readNs)}?watch=true&resourceVersion=0`, { headers: { accept: 'application/json;stream=watch' } });
  t.is(w.status, 200);
  t.is(w.headers['content-type'], 'application/json');
  const first = await w.next();
  t.is(first.type, 'ADDED');
  t.is(first.object.kind, 'Widget');
  w.close();
});

test('watchers in different codecs of the same events each get their own framing', async (t) => {
  const path = `/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3D${ns}-other`;
  const json = await server.watch(path, { headers: { accept: 'application/json' } });
  const viaTest = await server.watch(path, { headers: { accept: testMediaType } });
  t.is(viaTest.status, 200);
  t.is(viaTest.headers['content-type'], 'application/vnd.kapi.test-stream');
  const res = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-other` } } });
  t.is(res.status, 201, res.text);
  const [a, b] = await Promise.all([json.next(), viaTest.next()]);
  t.like(a, { type: 'ADDED', object: { kind: 'Namespace', metadata: { name: `${ns}-other` } } });
  t.false('testCodec' in a);
  t.like(b, { type: 'ADDED', testCodec: true, object: { kind: 'Namespace', metadata: { name: `${ns}-other` } } });
  json.close();
  viaTest.close();
});
