import test from 'ava';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { independentCbor as independent } from '../helpers/independent-cbor.js';
import { encodeCbor } from '../../plugins/codecs/cbor/index.js';
import { createNamespace, suffix, useTestServer, widget, widgetsPath, type TestServer } from '../helpers/test-server.js';
import { sendBinary, type BinaryRequest } from '../helpers/binary-request.js';

/**
 * CBOR over real HTTP, as a Kubernetes 1.32+ CBOR client speaks it: bodies and responses in application/cbor,
 * server-side apply with application/apply-patch+cbor, errors as CBOR Status, watches as application/cbor-seq.
 * Responses are read with node-cbor, a decoder independent of kapi's.
 */

const server = useTestServer({ widgetsCrd: true });
const cbor = 'application/cbor';

/** node-cbor gives byte strings as Buffers and maps as Maps; kube's strings are byte strings. */
function plain(v: unknown): any {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [Buffer.isBuffer(k) ? k.toString('utf8') : k, plain(x)]));
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'bigint') return Number(v);
  return v;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
  /** The body read by node-cbor when it is CBOR, else parsed JSON or text. */
  body: any;
}

async function send(s: TestServer, method: string, path: string, opts: BinaryRequest = {}): Promise<RawResponse> {
  const res = await sendBinary(s, method, path, { ...opts, accept: opts.accept ?? cbor, contentType: opts.contentType ?? cbor });
  const type = res.headers['content-type'] ?? '';
  const body = type.startsWith(cbor) ? plain(independent.decode(res.bytes)) : /json/.test(type) ? JSON.parse(res.bytes.toString()) : res.bytes.toString();
  return { ...res, body };
}

const selfDescribed = Buffer.from([0xd9, 0xd9, 0xf7]);

test('a custom resource: create, get, list and update in CBOR', async (t) => {
  const ns = await createNamespace(server, 'cbor-cr');
  const created = await send(server, 'POST', widgetsPath(ns), { body: encodeCbor(widget('w1', { spec: { color: 'blue', replicas: 2 } })) });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is(created.headers['content-type'], cbor);
  t.true(created.bytes.subarray(0, 3).equals(selfDescribed), 'responses start with the self-described CBOR tag');
  t.like(created.body, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: ns }, spec: { color: 'blue', replicas: 2 } });
  t.is(typeof created.body.metadata.resourceVersion, 'string');

  const got = await send(server, 'GET', widgetsPath(ns, 'w1'));
  t.is(got.status, 200);
  t.deepEqual(got.body, created.body);

  const list = await send(server, 'GET', widgetsPath(ns));
  t.is(list.status, 200);
  t.like(list.body, { apiVersion: 'example.com/v1', kind: 'WidgetList' });
  t.deepEqual(
    list.body.items.map((i: any) => i.metadata.name),
    ['w1'],
  );

  const updated = await send(server, 'PUT', widgetsPath(ns, 'w1'), { body: encodeCbor({ ...got.body, spec: { color: 'green', replicas: 3 } }) });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body.spec, { color: 'green', replicas: 3 });
  t.not(updated.body.metadata.resourceVersion, got.body.metadata.resourceVersion);

  // The same object read as JSON: CBOR and JSON are two encodings of one object.
  const asJson = await server.request('GET', widgetsPath(ns, 'w1'));
  t.deepEqual(asJson.body, updated.body);
});

test('a Namespace in CBOR, including a body with text strings and no self-described tag', async (t) => {
  const name = `cbor-ns-${suffix()}`;
  // node-cbor writes text strings and no tag; kube's decoder accepts both.
  const body = independent.encode({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const created = await send(server, 'POST', '/api/v1/namespaces', { body });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(created.body, { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase: 'Active' } });
  const got = await send(server, 'GET', `/api/v1/namespaces/${name}`);
  t.is(got.status, 200);
  t.is(got.body.metadata.uid, created.body.metadata.uid);

  const list = await send(server, 'GET', '/api/v1/namespaces');
  t.is(list.status, 200);
  t.like(list.body, { apiVersion: 'v1', kind: 'NamespaceList' });
  t.true(list.body.items.some((n: any) => n.metadata.name === name));

  const labelled = { ...got.body, metadata: { ...got.body.metadata, labels: { team: 'cbor' } } };
  const updated = await send(server, 'PUT', `/api/v1/namespaces/${name}`, { body: encodeCbor(labelled) });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body.metadata.labels, { team: 'cbor' });
});

test('server-side apply with application/apply-patch+cbor', async (t) => {
  const ns = await createNamespace(server, 'cbor-ssa');
  const patch = encodeCbor(widget('applied', { spec: { color: 'red', replicas: 1 } }));
  const path = `${widgetsPath(ns, 'applied')}?fieldManager=cbor-client`;
  const created = await send(server, 'PATCH', path, { body: patch, contentType: 'application/apply-patch+cbor' });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(created.body, { metadata: { name: 'applied' }, spec: { color: 'red', replicas: 1 } });
  t.like(created.body.metadata.managedFields[0], { manager: 'cbor-client', operation: 'Apply' });

  const again = await send(server, 'PATCH', path, {
    body: encodeCbor(widget('applied', { spec: { color: 'red', replicas: 5 } })),
    contentType: 'application/apply-patch+cbor',
  });
  t.is(again.status, 200);
  t.is(again.body.spec.replicas, 5);

  // As for YAML apply patches, the field manager is required.
  const withoutManagerCbor = await send(server, 'PATCH', widgetsPath(ns, 'applied'), { body: patch, contentType: 'application/apply-patch+cbor', accept: 'application/json' });
  const withoutManagerYaml = await send(server, 'PATCH', widgetsPath(ns, 'applied'), {
    body: JSON.stringify(widget('applied')),
    contentType: 'application/apply-patch+yaml',
    accept: 'application/json',
  });
  t.is(withoutManagerCbor.status, 422);
  t.deepEqual(withoutManagerCbor.body, withoutManagerYaml.body);
});

test('errors are CBOR Status objects when the client accepts CBOR', async (t) => {
  const ns = await createNamespace(server, 'cbor-err');
  const missing = await send(server, 'GET', widgetsPath(ns, 'nope'));
  t.is(missing.status, 404);
  t.is(missing.headers['content-type'], cbor);
  t.true(missing.bytes.subarray(0, 3).equals(selfDescribed));
  t.like(missing.body, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: 'widgets.example.com "nope" not found' });

  // Malformed and truncated bodies: 400 with kube's message.
  const truncated = encodeCbor(widget('t1')).subarray(0, 20);
  const bad = await send(server, 'POST', widgetsPath(ns), { body: truncated });
  t.is(bad.status, 400);
  t.like(bad.body, { kind: 'Status', code: 400, reason: 'BadRequest' });
  t.is(
    bad.body.message,
    `the object provided is unrecognized (must be of type Widget): unable to determine group/version/kind: unexpected EOF (${truncated.toString('hex')})`,
  );

  // Duplicate keys are refused outright (not a strict field-validation warning).
  const dup = Buffer.concat([
    Buffer.from('d9d9f7a4', 'hex'),
    encodeCbor('apiVersion').subarray(3),
    encodeCbor('example.com/v1').subarray(3),
    encodeCbor('kind').subarray(3),
    encodeCbor('Widget').subarray(3),
    encodeCbor('metadata').subarray(3),
    encodeCbor({ name: 'dup' }).subarray(3),
    encodeCbor('spec').subarray(3),
    Buffer.from('a2', 'hex'),
    encodeCbor('color').subarray(3),
    encodeCbor('red').subarray(3),
    encodeCbor('color').subarray(3),
    encodeCbor('blue').subarray(3),
  ]);
  const dupRes = await send(server, 'POST', widgetsPath(ns), { body: dup, accept: 'application/json' });
  t.is(dupRes.status, 400);
  t.is(dupRes.body.message, 'Widget in version "v1" cannot be handled as a Widget: cbor: found duplicate map key "color" at map element index 1');
});

test('a watch in CBOR: Accept application/cbor answers an application/cbor-seq stream, one data item per event', async (t) => {
  const ns = await createNamespace(server, 'cbor-watch');
  const events: any[] = [];
  let buffered = Buffer.alloc(0);
  let waiter: (() => void) | undefined;
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1',
      port: new URL(server.url).port,
      path: `${widgetsPath(ns)}?watch=1`,
      ca: server.ca,
      headers: { authorization: `Bearer ${server.token}`, accept: cbor },
      agent: false,
    });
    req.on('error', reject);
    req.on('response', resolve);
    req.end();
  });
  t.teardown(() => res.destroy());
  t.is(res.statusCode, 200);
  t.is(res.headers['content-type'], 'application/cbor-seq');
  res.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    // Take every complete data item off the front; a partial one waits for more bytes.
    for (;;) {
      const end = itemEnd(buffered, 0);
      if (end === undefined) break;
      const frame = buffered.subarray(0, end);
      t.true(frame.subarray(0, 3).equals(selfDescribed), 'each event is self-described');
      events.push(plain(independent.decode(frame)));
      buffered = buffered.subarray(end);
    }
    waiter?.();
  });
  const next = async (n: number) => {
    const deadline = Date.now() + 5000;
    while (events.length < n && Date.now() < deadline) await new Promise<void>((r) => ((waiter = r), setTimeout(r, 100)));
    return events[n - 1];
  };

  await send(server, 'POST', widgetsPath(ns), { body: encodeCbor(widget('w1')) });
  const added = await next(1);
  t.is(added?.type, 'ADDED');
  t.like(added?.object, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: ns } });

  await send(server, 'DELETE', widgetsPath(ns, 'w1'));
  const deleted = await next(2);
  t.is(deleted?.type, 'DELETED');
  t.is(deleted?.object.metadata.name, 'w1');
  t.deepEqual(Object.keys(deleted ?? {}), ['type', 'object']);
});

test('negotiation: application/cbor-seq itself is not a media type kube serves; Tables fall back to JSON', async (t) => {
  const ns = await createNamespace(server, 'cbor-neg');
  const seq = await send(server, 'GET', `${widgetsPath(ns)}?watch=1`, { accept: 'application/cbor-seq' });
  t.is(seq.status, 406);
  t.is(seq.body.reason, 'NotAcceptable');

  const table = await send(server, 'GET', widgetsPath(ns), { accept: 'application/cbor;as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1;g=meta.k8s.io' });
  t.is(table.status, 200);
  t.regex(String(table.headers['content-type']), /^application\/json/);
  t.is(table.body.kind, 'Table');
  const onlyCbor = await send(server, 'GET', widgetsPath(ns), { accept: 'application/cbor;as=Table;v=v1;g=meta.k8s.io' });
  t.is(onlyCbor.status, 406);
});

/** The end offset of the CBOR data item starting at `off`, or undefined when the buffer holds only part of it. */
function itemEnd(b: Buffer, off: number): number | undefined {
  if (off >= b.length) return undefined;
  const major = b[off]! >> 5;
  const ai = b[off]! & 0x1f;
  let p = off + 1;
  let n = ai;
  if (ai >= 24 && ai <= 27) {
    const size = 1 << (ai - 24);
    if (p + size > b.length) return undefined;
    n = size === 8 ? Number(b.readBigUInt64BE(p)) : b.readUIntBE(p, size);
    p += size;
  }
  switch (major) {
    case 2:
    case 3:
      return p + n <= b.length ? p + n : undefined;
    case 4:
    case 5:
      for (let i = 0; i < (major === 5 ? 2 * n : n); i++) {
        const e = itemEnd(b, p);
        if (e === undefined) return undefined;
        p = e;
      }
      return p;
    case 6:
      return itemEnd(b, p);
    default:
      return p;
  }
}
