import test from 'ava';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { fieldNumbersAnnotation, generateProto, type CrdSource } from '../../generators/proto/index.js';
import { KubeProtobufClient } from '../helpers/kube-protobuf-client.js';
import { decodeKubeProtobuf } from '../../plugins/codecs/protobuf/index.js';
import { createNamespace, installCrd, useTestServer, widget, widgetsPath, type TestServer } from '../helpers/test-server.js';
import { sendBinary, type BinaryRequest } from '../helpers/binary-request.js';

/**
 * Protobuf for custom resources over real HTTP: a client generated from `kapi gen proto`'s .proto (here protobufjs
 * reading that text) creates, reads, updates, lists and watches them; a CRD without field numbers falls back to
 * JSON or gets kube's 406.
 */

const server = useTestServer({ widgetsCrd: true });
const protobufType = 'application/vnd.kubernetes.protobuf';
const group = 'proto.example.com';
const apiVersion = `${group}/v1`;

function gizmosCrd(extraSpec: Record<string, unknown> = {}, kind = 'Gizmo'): CrdSource & Record<string, any> {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    replicas: { type: 'integer' },
                    port: { 'x-kubernetes-int-or-string': true },
                    selector: { type: 'object', additionalProperties: { type: 'string' } },
                    ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, number: { type: 'integer' } } } },
                    config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    ...extraSpec,
                  },
                },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  } as unknown as CrdSource & Record<string, any>;
}

/** The CRD with its field-number annotation, as `kapi gen proto --write-crd` leaves it, and the .proto. */
function withNumbers(crd: CrdSource & Record<string, any>) {
  const generated = generateProto(crd);
  crd.metadata!.annotations = { ...crd.metadata!.annotations, [fieldNumbersAnnotation]: generated.annotation };
  return { crd, generated, client: new KubeProtobufClient(generated.proto, generated.file.package) };
}

const initial = withNumbers(gizmosCrd());
const client = initial.client;

test.serial.before(async () => {
  await installCrd(server, initial.crd);
});

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
  json: any;
}

async function send(s: TestServer, method: string, path: string, opts: BinaryRequest = {}): Promise<RawResponse> {
  const res = await sendBinary(s, method, path, { ...opts, accept: opts.accept ?? protobufType, contentType: opts.contentType ?? protobufType });
  const json = /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(res.bytes.toString()) : undefined;
  return { ...res, json };
}

const gizmosPath = (ns: string, name?: string, plural = 'gizmos') => `/apis/${group}/v1/namespaces/${ns}/${plural}${name ? `/${name}` : ''}`;

test('a custom resource with field numbers is created, read, updated and listed in protobuf', async (t) => {
  const ns = await createNamespace(server, 'pb-cr');
  const body = client.encode(apiVersion, 'Gizmo', {
    metadata: { name: 'g1' },
    spec: { replicas: 0, port: { type: 1, strVal: 'http' }, selector: { app: 'web' }, ports: [{ name: 'a', number: 80 }], config: Buffer.from('{"free":["form",1]}') },
  });
  const created = await send(server, 'POST', gizmosPath(ns), { body });
  t.is(created.status, 201, created.bytes.toString());
  t.is(created.headers['content-type'], protobufType);
  const c = client.decode(created.bytes);
  t.is(c.apiVersion, apiVersion);
  t.is(c.kind, 'Gizmo');
  t.like(c.message.metadata, { name: 'g1', namespace: ns, generation: 1 });
  t.truthy(c.message.metadata.uid);
  t.deepEqual({ ...c.message.spec, config: c.message.spec.config.toString() }, {
    replicas: 0,
    port: { type: 1, intVal: 0, strVal: 'http' },
    selector: { app: 'web' },
    ports: [{ name: 'a', number: 80 }],
    config: '{"free":["form",1]}',
  });

  // The object kapi stored is the one the protobuf described.
  const asJson = await send(server, 'GET', gizmosPath(ns, 'g1'), { accept: 'application/json' });
  t.deepEqual(asJson.json.spec, { replicas: 0, port: 'http', selector: { app: 'web' }, ports: [{ name: 'a', number: 80 }], config: { free: ['form', 1] } });

  const got = await send(server, 'GET', gizmosPath(ns, 'g1'));
  t.is(got.status, 200);
  t.is(got.headers['content-type'], protobufType);
  t.deepEqual(client.decode(got.bytes).message, c.message);

  const update = client.encode(apiVersion, 'Gizmo', {
    metadata: { name: 'g1', namespace: ns, resourceVersion: c.message.metadata.resourceVersion },
    spec: { replicas: 3, port: { type: 0, intVal: 8080 } },
  });
  const updated = await send(server, 'PUT', gizmosPath(ns, 'g1'), { body: update });
  t.is(updated.status, 200, updated.bytes.toString());
  const u = client.decode(updated.bytes).message;
  t.deepEqual(u.spec, { replicas: 3, port: { type: 0, intVal: 8080, strVal: '' } });
  t.is(u.metadata.generation, 2);

  await send(server, 'POST', gizmosPath(ns), { body: client.encode(apiVersion, 'Gizmo', { metadata: { name: 'g2' }, spec: { replicas: 1 } }) });
  const list = await send(server, 'GET', gizmosPath(ns));
  t.is(list.status, 200);
  const l = client.decode(list.bytes);
  t.is(l.kind, 'GizmoList');
  t.truthy(l.message.metadata.resourceVersion);
  t.deepEqual(
    l.message.items.map((i: any) => [i.metadata.name, i.spec.replicas]),
    [
      ['g1', 3],
      ['g2', 1],
    ],
  );
});

test('a watch in protobuf streams length-prefixed events whose objects are the generated messages', async (t) => {
  const ns = await createNamespace(server, 'pb-watch');
  const frames: { type: string; object: Uint8Array }[] = [];
  let buffered: Buffer = Buffer.alloc(0);
  let contentType = '';
  const req = https.request({
    host: '127.0.0.1',
    port: new URL(server.url).port,
    path: `${gizmosPath(ns)}?watch=1`,
    ca: server.ca,
    headers: { authorization: `Bearer ${server.token}`, accept: protobufType },
    agent: false,
  });
  const opened = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      contentType = res.headers['content-type'] ?? '';
      res.on('data', (chunk: Buffer) => {
        const { events, rest } = client.readFrames(Buffer.concat([buffered, chunk]));
        frames.push(...events);
        buffered = rest;
      });
      resolve();
    });
  });
  req.end();
  try {
    await opened;
    t.is(contentType, `${protobufType};stream=watch`);
    const created = await send(server, 'POST', gizmosPath(ns), { body: client.encode(apiVersion, 'Gizmo', { metadata: { name: 'w1' }, spec: { replicas: 1 } }) });
    t.is(created.status, 201);
    const rv = client.decode(created.bytes).message.metadata.resourceVersion;
    await send(server, 'PUT', gizmosPath(ns, 'w1'), {
      body: client.encode(apiVersion, 'Gizmo', { metadata: { name: 'w1', namespace: ns, resourceVersion: rv }, spec: { replicas: 2 } }),
    });
    await server.waitFor(() => frames.length >= 2, 5000, 'two watch events');
    const events = frames.map((f) => ({ type: f.type, ...client.decode(f.object) }));
    t.deepEqual(
      events.map((e) => [e.type, e.apiVersion, e.kind, e.message.metadata.name, e.message.spec.replicas]),
      [
        ['ADDED', apiVersion, 'Gizmo', 'w1', 1],
        ['MODIFIED', apiVersion, 'Gizmo', 'w1', 2],
      ],
    );
  } finally {
    req.destroy();
  }
});

test('a custom resource without field numbers falls back to JSON, or gets 406 when only protobuf is acceptable', async (t) => {
  const ns = await createNamespace(server, 'pb-none');
  const created = await send(server, 'POST', widgetsPath(ns), { body: JSON.stringify(widget('w1')), contentType: 'application/json', accept: `${protobufType}, application/json` });
  t.is(created.status, 201);
  t.is(created.headers['content-type'], 'application/json');
  t.like(created.json, { kind: 'Widget', metadata: { name: 'w1' } });

  const fallback = await send(server, 'GET', widgetsPath(ns, 'w1'), { accept: `${protobufType}, application/json` });
  t.is(fallback.status, 200);
  t.is(fallback.headers['content-type'], 'application/json');
  t.like(fallback.json, { kind: 'Widget', metadata: { name: 'w1' } });

  // kube leaves protobuf out of a custom resource's serializers, so negotiation fails with its usual 406; the Status
  // itself has a protobuf form, so it comes in protobuf, as kube sends it.
  const notAcceptable = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor';
  const only = await send(server, 'GET', widgetsPath(ns, 'w1'));
  t.is(only.status, 406);
  t.is(only.headers['content-type'], protobufType);
  t.like(decodeKubeProtobuf(only.bytes, { apiVersion: 'v1', kind: 'Status' }), { kind: 'Status', code: 406, reason: 'NotAcceptable', message: notAcceptable });
  const onlyList = await send(server, 'GET', widgetsPath(ns));
  t.is(onlyList.status, 406);
  t.like(decodeKubeProtobuf(onlyList.bytes, { apiVersion: 'v1', kind: 'Status' }), { code: 406, message: notAcceptable });

  const pbBody = client.encode('example.com/v1', 'Gizmo', { metadata: { name: 'w2' } });
  const refused = await send(server, 'POST', widgetsPath(ns), { body: pbBody, accept: 'application/json' });
  t.is(refused.status, 415);
});

test('a schema change the annotation does not cover turns protobuf off until the numbers are regenerated', async (t) => {
  // Its own CRD (Doodad), so the other tests' Gizmo CRD stays as it is.
  const original = withNumbers(gizmosCrd({}, 'Doodad'));
  await installCrd(server, original.crd);
  const ns = await createNamespace(server, 'pb-change');
  const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/doodads.${group}`;
  const path = (name?: string) => gizmosPath(ns, name, 'doodads');
  const accept = `${protobufType}, application/json`;
  const put = async (crd: any) => {
    const current = (await send(server, 'GET', crdPath, { accept: 'application/json' })).json;
    const res = await send(server, 'PUT', crdPath, {
      body: JSON.stringify({ ...crd, metadata: { ...crd.metadata, resourceVersion: current.metadata.resourceVersion } }),
      contentType: 'application/json',
      accept: 'application/json',
    });
    t.is(res.status, 200, JSON.stringify(res.json));
  };
  const c1 = await send(server, 'POST', path(), { body: original.client.encode(apiVersion, 'Doodad', { metadata: { name: 'c1' }, spec: { replicas: 4 } }) });
  t.is(c1.status, 201);

  // A new field, the old annotation: kapi cannot describe the new field, so it serves JSON.
  const changed = gizmosCrd({ color: { type: 'string' } }, 'Doodad');
  changed.metadata!.annotations = original.crd.metadata!.annotations;
  await put(changed);
  await server.waitFor(async () => (await send(server, 'GET', path('c1'), { accept })).headers['content-type'] === 'application/json', 10_000, 'JSON fallback');

  // Regenerated from the recorded numbers: old fields keep theirs, the new one gets the next.
  const regenerated = withNumbers(changed);
  t.deepEqual(regenerated.generated.added, [{ path: '$.spec', field: 'color', number: 6 }]);
  await put(regenerated.crd);
  const res = await server.waitFor(async () => {
    const r = await send(server, 'GET', path('c1'), { accept });
    return r.headers['content-type'] === protobufType ? r : undefined;
  }, 10_000, 'protobuf again');
  t.is(original.client.decode(res.bytes).message.spec.replicas, 4, 'a client generated before the change still reads the object');
  const c2 = await send(server, 'POST', path(), {
    body: regenerated.client.encode(apiVersion, 'Doodad', { metadata: { name: 'c2' }, spec: { replicas: 5, color: 'red' } }),
  });
  t.is(c2.status, 201);
  t.deepEqual(regenerated.client.decode(c2.bytes).message.spec, { replicas: 5, color: 'red' });
});
