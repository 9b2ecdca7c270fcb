// /openapi/v2 and /openapi/v3/<group-version> as gnostic protobuf over real HTTPS, read with an independent decoder
// (tests/helpers/gnostic-decoder.ts) and compared with the JSON answer.
import test from 'ava';
import { sendBinary } from '../helpers/binary-request.js';
import { asGnosticReadsIt, decodeGnostic, openapiV3Json, swaggerJson } from '../helpers/gnostic-decoder.js';
import { installCrd, useTestServer, widgetsCrd } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const v2Protobuf = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const v2ProtobufDeprecated = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const v3Protobuf = 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf';
const v3ProtobufDeprecated = 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf';
const widgetsV3 = '/openapi/v3/apis/example.com/v1';

const get = (path: string, accept?: string, headers?: Record<string, string>) => sendBinary(server, 'GET', path, { accept, headers });

async function jsonAnswer(path: string) {
  const res = await get(path, 'application/json');
  return { etag: res.headers.etag, doc: JSON.parse(res.bytes.toString('utf8')) as Record<string, any> };
}

for (const accept of [v2Protobuf, v2ProtobufDeprecated]) {
  test(`/openapi/v2 with Accept ${accept} is gnostic protobuf of the JSON document`, async (t) => {
    const json = await jsonAnswer('/openapi/v2');
    const res = await get('/openapi/v2', accept);
    t.is(res.status, 200);
    t.is(res.headers['content-type'], v2Protobuf);
    t.is(res.headers.vary, 'Accept');
    t.is(res.headers.etag, json.etag, 'the JSON document names the version of both encodings');

    const decoded = swaggerJson(decodeGnostic('v2', res.bytes));
    t.deepEqual(decoded, asGnosticReadsIt(json.doc, 'v2'));
    // A few parts spelled out, as kubectl reads them.
    const widget = (decoded.definitions as Record<string, any>)['com.example.v1.Widget'];
    t.deepEqual(widget['x-kubernetes-group-version-kind'], [{ group: 'example.com', kind: 'Widget', version: 'v1' }]);
    t.deepEqual(Object.keys(widget.properties).sort(), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    t.is(widget.properties.metadata.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const list = (decoded.paths as Record<string, any>)['/apis/example.com/v1/namespaces/{namespace}/widgets'];
    t.is(list.get.operationId, 'listExampleComV1NamespacedWidget');
    t.is(list.get['x-kubernetes-action'], 'list');
    t.is(list.post.parameters[0].schema.$ref, '#/definitions/com.example.v1.Widget');
  });
}

for (const accept of [v3Protobuf, v3ProtobufDeprecated]) {
  test(`${widgetsV3} with Accept ${accept} is gnostic protobuf of the JSON document`, async (t) => {
    const json = await jsonAnswer(widgetsV3);
    const res = await get(widgetsV3, accept);
    t.is(res.status, 200);
    t.is(res.headers['content-type'], v3Protobuf);
    t.is(res.headers.vary, 'Accept');
    t.is(res.headers.etag, json.etag);

    const decoded = openapiV3Json(decodeGnostic('v3', res.bytes));
    t.deepEqual(decoded, asGnosticReadsIt(json.doc, 'v3'));
    const schemas = (decoded.components as Record<string, any>).schemas;
    t.deepEqual(schemas['com.example.v1.Widget'].properties.metadata.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    t.deepEqual(schemas['com.example.v1.Widget'].properties.spec.properties.replicas, { type: 'integer' }, 'minimum: 0 is a zero gnostic drops');
  });
}

test('the core group-version document decodes to its JSON too', async (t) => {
  const json = await jsonAnswer('/openapi/v3/api/v1');
  const res = await get('/openapi/v3/api/v1', v3Protobuf);
  t.deepEqual(openapiV3Json(decodeGnostic('v3', res.bytes)), asGnosticReadsIt(json.doc, 'v3'));
});

test('the ETag of a protobuf answer makes a 304 without a body, in both versions', async (t) => {
  for (const [path, accept] of [['/openapi/v2', v2Protobuf], [widgetsV3, v3Protobuf]] as const) {
    const first = await get(path, accept);
    const again = await get(path, accept, { 'If-None-Match': first.headers.etag! });
    t.is(again.status, 304, path);
    t.is(again.bytes.length, 0, path);
    t.is(again.headers.etag, first.headers.etag, path);
    const stale = await get(path, accept, { 'If-None-Match': '"0"' });
    t.is(stale.status, 200, path);
    t.deepEqual(stale.bytes, first.bytes, path);
  }
});

test('a v3 protobuf answer asked for with the current hash is immutable; a stale hash redirects', async (t) => {
  const root = JSON.parse((await get('/openapi/v3')).bytes.toString('utf8'));
  const url: string = root.paths['apis/example.com/v1'].serverRelativeURL;
  const res = await get(url, v3Protobuf);
  t.is(res.status, 200);
  t.is(res.headers['content-type'], v3Protobuf);
  t.is(res.headers['cache-control'], 'public, immutable');
  const stale = await get(`${widgetsV3}?hash=0`, v3Protobuf);
  t.is(stale.status, 301);
  t.is(stale.headers.location, url);
});

test('Accept picks JSON or protobuf as kube-openapi does: best clause first, */* is JSON, neither is 406', async (t) => {
  const cases: [accept: string | undefined, path: string, status: number, contentType?: string][] = [
    [undefined, '/openapi/v2', 200, 'application/json'],
    ['*/*', '/openapi/v2', 200, 'application/json'],
    ['application/*', widgetsV3, 200, 'application/json'],
    [`${v2Protobuf};q=0.5, application/json`, '/openapi/v2', 200, 'application/json'],
    [`${v2ProtobufDeprecated}, application/json`, '/openapi/v2', 200, v2Protobuf],
    [`application/yaml, ${v3ProtobufDeprecated};q=0.9`, widgetsV3, 200, v3Protobuf],
    [v3Protobuf, '/openapi/v2', 406],
    [v2Protobuf, widgetsV3, 406],
    ['application/yaml', '/openapi/v2', 406],
  ];
  for (const [accept, path, status, contentType] of cases) {
    const res = await get(path, accept);
    t.is(res.status, status, `${path} Accept ${accept}`);
    if (contentType) t.is(res.headers['content-type'], contentType, `${path} Accept ${accept}`);
    else t.is(res.bytes.length, 0, `${path} Accept ${accept}: no body`);
  }
});

// Serial, so it runs before the other tests (which compare two answers and would not have the registry change between).
test.serial('a new CRD is in the next protobuf answer, under a new ETag', async (t) => {
  const before = await get('/openapi/v2', v2Protobuf);
  const crd = await widgetsCrd();
  crd.metadata.name = 'gadgets.example.com';
  crd.spec.names = { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' };
  await installCrd(server, crd);
  const after = await get('/openapi/v2', v2Protobuf);
  t.not(after.headers.etag, before.headers.etag);
  const definitions = (bytes: Buffer) => Object.keys(swaggerJson(decodeGnostic('v2', bytes)).definitions as object);
  t.false(definitions(before.bytes).includes('com.example.v1.Gadget'));
  t.true(definitions(after.bytes).includes('com.example.v1.Gadget'));
  const v3 = openapiV3Json(decodeGnostic('v3', (await get(widgetsV3, v3Protobuf)).bytes));
  t.truthy((v3.paths as Record<string, unknown>)['/apis/example.com/v1/namespaces/{namespace}/gadgets']);
});
