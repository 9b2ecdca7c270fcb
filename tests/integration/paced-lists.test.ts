/**
 * Lists (and Tables) of 500 items or more are written piece by piece (chunked, no Content-Length) in every encoding
 * (JSON, YAML, CBOR, Kubernetes protobuf), prepared and written ~10 ms at a time: the client gets the same bytes as a one-piece
 * answer would be, gzipped when it asks, and other requests are answered while the list is being written.
 */
import test from 'ava';
import YAML from 'yaml';
import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { createNamespace, installCrd, names, useTestServer, widget, widgetsCrd, widgetsPath, type TestServer } from '../helpers/test-server.js';
import { sendBinary } from '../helpers/binary-request.js';
import { KubeProtobufClient } from '../helpers/kube-protobuf-client.js';
import { fieldNumbersAnnotation, generateProto } from '../../generators/proto/index.js';
import { CborCodec, decodeCborBody } from '../../plugins/codecs/cbor/cbor-codec.js';
import { decodeKubeProtobuf, encodeKubeProtobuf, KubeProtobufCodec } from '../../plugins/codecs/protobuf/index.js';
import { customResourceProtobufKinds } from '../../plugins/codecs/protobuf/custom-resources/index.js';
import { ResourceTypeRegistry } from '../../core/registry/resource-registry.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';

const server = useTestServer({ storage: 'memory' });
const count = 600;
let ns = '';
/** Widgets whose encoding is slow (1,000 annotations each), for the tests that watch other requests during a list. */
let heavyNs = '';
/** The widgets CRD with protobuf field numbers (as `kapi gen proto --write-crd` leaves it): WidgetList has protobuf too. */
let protobufClient: KubeProtobufClient;
let widgetsProtobuf: KubeProtobufCodec;

const cborType = 'application/cbor';
const protobufType = 'application/vnd.kubernetes.protobuf';
const partialList = (v: string) => `;as=PartialObjectMetadataList;g=meta.k8s.io;v=${v}`;

test.serial.before(async () => {
  const crd = await widgetsCrd();
  const generated = generateProto(crd);
  crd.metadata.annotations = { [fieldNumbersAnnotation]: generated.annotation };
  await installCrd(server, crd);
  protobufClient = new KubeProtobufClient(generated.proto, generated.file.package);
  const registry = new ResourceTypeRegistry();
  registry.set(widgetsType(crd));
  widgetsProtobuf = new KubeProtobufCodec(customResourceProtobufKinds(registry));

  ns = await createNamespace(server, 'paced');
  heavyNs = await createNamespace(server, 'paced-heavy');
  const annotations = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`note-${i}`, `value ${i}`]));
  await fill(ns, (i) => widget(`w${String(i).padStart(3, '0')}`, { spec: { color: 'multi\nline', replicas: i } }));
  await fill(heavyNs, (i) => {
    const body = widget(`h${String(i).padStart(3, '0')}`);
    return { ...body, metadata: { ...body.metadata, annotations } };
  });
});

/** Creates `count` widgets in `namespace`, 50 at a time. */
async function fill(namespace: string, body: (i: number) => object): Promise<void> {
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
        const res = await server.request('POST', widgetsPath(namespace), { body: body(i + j) });
        if (res.status !== 201) throw new Error(res.text);
      }),
    );
  }
}

/** The widgets CRD as the ResourceType kapi's protobuf lookup reads (its versions' schemas and annotations). */
function widgetsType(crd: any): ResourceType {
  return {
    group: crd.spec.group,
    names: crd.spec.names,
    scope: 'Namespaced',
    versions: crd.spec.versions.map((v: any) => ({ name: v.name, served: v.served, storage: v.storage, schema: v.schema.openAPIV3Schema })),
    allowUnconditionalUpdate: false,
    verbs: [],
    definedBy: { crd: crd.metadata.name },
    annotations: crd.metadata.annotations,
  };
}

async function getJson(path: string, accept = 'application/json'): Promise<any> {
  const res = await sendBinary(server, 'GET', path, { accept });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.bytes.toString('utf8')}`);
  return JSON.parse(res.bytes.toString('utf8'));
}

test('a 600-item JSON list arrives chunked and whole, items in order', async (t) => {
  const res = await sendBinary(server, 'GET', widgetsPath(ns));
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/json');
  t.is(res.headers['transfer-encoding'], 'chunked');
  t.is(res.headers['content-length'], undefined);
  const list = JSON.parse(res.bytes.toString('utf8'));
  t.like(list, { apiVersion: 'example.com/v1', kind: 'WidgetList' });
  t.truthy(list.metadata.resourceVersion);
  t.deepEqual(names(list), Array.from({ length: count }, (_, i) => `w${String(i).padStart(3, '0')}`));
  t.deepEqual(list.items[7].spec, { color: 'multi\nline', replicas: 7 });
});

test('the same list as YAML reads back to the same objects', async (t) => {
  const json = JSON.parse((await sendBinary(server, 'GET', widgetsPath(ns))).bytes.toString('utf8'));
  const res = await sendBinary(server, 'GET', widgetsPath(ns), { accept: 'application/yaml' });
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/yaml');
  t.is(res.headers['transfer-encoding'], 'chunked');
  t.deepEqual(YAML.parse(res.bytes.toString('utf8')), json);
});

test('a paced list is gzipped as it streams when the client accepts gzip', async (t) => {
  const res = await sendBinary(server, 'GET', widgetsPath(ns), { headers: { 'accept-encoding': 'gzip' } });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], 'gzip');
  t.regex(String(res.headers['vary']), /\bAccept-Encoding\b/i);
  t.is(JSON.parse(gunzipSync(res.bytes).toString('utf8')).items.length, count);
});

test('a page below the threshold keeps its Content-Length', async (t) => {
  const res = await sendBinary(server, 'GET', `${widgetsPath(ns)}?limit=10`);
  t.is(Number(res.headers['content-length']), res.bytes.length);
  t.is(JSON.parse(res.bytes.toString('utf8')).items.length, 10);
  const cbor = await sendBinary(server, 'GET', `${widgetsPath(ns)}?limit=10`, { accept: cborType });
  t.is(Number(cbor.headers['content-length']), cbor.bytes.length);
});

test('a 600-item CBOR list arrives chunked, with the bytes the one-piece encoding gives and the objects JSON gives', async (t) => {
  const json = await getJson(widgetsPath(ns));
  const res = await sendBinary(server, 'GET', widgetsPath(ns), { accept: cborType });
  t.is(res.status, 200);
  t.is(res.headers['content-type'], cborType);
  t.is(res.headers['transfer-encoding'], 'chunked');
  t.deepEqual(decodeCborBody(res.bytes, { apiVersion: 'example.com/v1', kind: 'WidgetList' }), json);
  t.true(new CborCodec().encode(json).equals(res.bytes));
});

test('a 600-item protobuf WidgetList arrives chunked, with the bytes the one-piece encoding gives', async (t) => {
  const json = await getJson(widgetsPath(ns));
  const res = await sendBinary(server, 'GET', widgetsPath(ns), { accept: protobufType });
  t.is(res.status, 200);
  t.is(res.headers['content-type'], protobufType);
  t.is(res.headers['transfer-encoding'], 'chunked');
  const list = protobufClient.decode(res.bytes);
  t.is(list.kind, 'WidgetList');
  t.is(list.message.metadata.resourceVersion, json.metadata.resourceVersion);
  t.deepEqual(list.message.items.map((w: any) => w.metadata.name), names(json));
  t.deepEqual(list.message.items[7].spec, { color: 'multi\nline', replicas: 7 });
  t.true(widgetsProtobuf.encode(json).equals(res.bytes));
});

for (const v of ['v1', 'v1beta1']) {
  test(`a 600-item PartialObjectMetadataList (meta.k8s.io/${v}) in protobuf arrives chunked, as its one-piece encoding`, async (t) => {
    const json = await getJson(widgetsPath(ns), `application/json${partialList(v)}`);
    const res = await sendBinary(server, 'GET', widgetsPath(ns), { accept: `${protobufType}${partialList(v)}` });
    t.is(res.status, 200);
    t.is(res.headers['transfer-encoding'], 'chunked');
    // Items in protobuf lists carry no apiVersion/kind, as in kube.
    const items = json.items.map(({ metadata }: any) => ({ metadata }));
    t.deepEqual(decodeKubeProtobuf(res.bytes, { apiVersion: `meta.k8s.io/${v}`, kind: 'PartialObjectMetadataList' }), { ...json, items });
    t.true(encodeKubeProtobuf(json).equals(res.bytes));
  });
}

test('a 600-item PartialObjectMetadataList in CBOR and YAML reads back as the JSON one', async (t) => {
  const json = await getJson(widgetsPath(ns), `application/json${partialList('v1')}`);
  t.is(json.items.length, count);
  t.like(json.items[3], { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'w003' } });
  const cbor = await sendBinary(server, 'GET', widgetsPath(ns), { accept: `${cborType}${partialList('v1')}` });
  t.is(cbor.headers['transfer-encoding'], 'chunked');
  t.deepEqual(decodeCborBody(cbor.bytes, { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' }), json);
  const yaml = await sendBinary(server, 'GET', widgetsPath(ns), { accept: `application/yaml${partialList('v1')}` });
  t.deepEqual(YAML.parse(yaml.bytes.toString('utf8')), json);
});

test('a 600-row Table arrives chunked in JSON and YAML, as a one-piece encoding writes it', async (t) => {
  const accept = (type: string) => `${type};as=Table;g=meta.k8s.io;v=v1`;
  const res = await sendBinary(server, 'GET', widgetsPath(ns), { accept: accept('application/json') });
  t.is(res.status, 200);
  t.is(res.headers['transfer-encoding'], 'chunked');
  const text = res.bytes.toString('utf8');
  const table = JSON.parse(text);
  t.is(JSON.stringify(table), text);
  t.like(table, { kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
  t.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Color', 'Replicas', 'Age']);
  t.is(table.rows.length, count);
  t.deepEqual(table.rows[7].cells.slice(0, 3), ['w007', 'multi\nline', 7]);
  t.like(table.rows[7].object, { kind: 'PartialObjectMetadata', metadata: { name: 'w007' } });
  const yaml = await sendBinary(server, 'GET', widgetsPath(ns), { accept: accept('application/yaml') });
  t.is(yaml.headers['transfer-encoding'], 'chunked');
  const fromYaml = YAML.parse(yaml.bytes.toString('utf8'));
  // Ages are measured when each answer is made: compare the rest.
  const withoutAges = (rows: { cells: unknown[] }[]) => rows.map((r) => ({ ...r, cells: r.cells.slice(0, 3) }));
  t.deepEqual({ ...fromYaml, rows: withoutAges(fromYaml.rows) }, { ...table, rows: withoutAges(table.rows) });
});

/*
 * While a list is written, /readyz is asked back to back on a connection of its own: answers come before the list's
 * last byte, and none waits for half of the list's time, as one would behind a list encoded in one go (the server runs
 * in this process, so its holds delay everything; both times are measured here, so a slow machine slows both).
 */
for (const [format, accept, heavy] of [
  ['JSON', 'application/json', true],
  ['YAML', 'application/yaml', false], // slow enough with small widgets
  ['CBOR', cborType, true],
  ['protobuf', protobufType, true],
] as const) {
  test.serial(`/readyz is answered while a large ${format} list is being written`, async (t) => {
    const probe = await openReadyzProbe(server);
    const started = performance.now();
    let listEnded = Infinity;
    const list = sendBinary(server, 'GET', widgetsPath(heavy ? heavyNs : ns), { accept }).then((res) => {
      listEnded = performance.now();
      return res;
    });
    const waits = await probe.until(list);
    const res = await list;
    t.is(res.status, 200);
    t.is(res.headers['transfer-encoding'], 'chunked');
    const listMs = listEnded - started;
    const during = waits.filter((w) => w.answered < listEnded);
    t.true(during.length > 0, 'no /readyz was answered before the list ended');
    const longest = Math.max(...during.map((w) => w.answered - w.sent));
    t.true(longest < listMs / 2, `a /readyz waited ${longest.toFixed(0)} ms of the list's ${listMs.toFixed(0)} ms`);
  });
}

/** A kept-alive connection for /readyz, opened (by one /readyz) before it is used, so no handshake is measured. */
async function openReadyzProbe(s: TestServer) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
  const readyz = () =>
    new Promise<void>((resolve, reject) => {
      const req = https.get({ host: '127.0.0.1', port: new URL(s.url).port, path: '/readyz', ca: s.ca, agent, headers: { authorization: `Bearer ${s.token}` } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`/readyz: ${res.statusCode}`))));
      });
      req.on('error', reject);
    });
  await readyz();
  return {
    /** GETs /readyz back to back until `until` settles, then closes the connection; when each was sent and answered. */
    async until(until: Promise<unknown>): Promise<{ sent: number; answered: number }[]> {
      let done = false;
      void until.then(
        () => (done = true),
        () => (done = true),
      );
      const waits: { sent: number; answered: number }[] = [];
      try {
        while (!done) {
          const sent = performance.now();
          await readyz();
          waits.push({ sent, answered: performance.now() });
        }
      } finally {
        agent.destroy();
      }
      return waits;
    },
  };
}
