/**
 * kapi over HTTP/2 (ALPN h2, offered with http/1.1 on the same port): kubectl speaks it, watches and long lists stream
 * with flow control, several watches share one connection, client certificates authenticate, the stream limit kube
 * announces is announced and enforced, a refused body ends only its stream, idle connections are closed.
 */
import test from 'ava';
import http2 from 'node:http2';
import tls from 'node:tls';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClientCert, defineModule, ensurePki, rbacAuthorization, staticTokenAuth, Tokens, x509ClientCertAuth, adminUser } from '../../index.js';
import { createNamespace, startTestServer, suffix, type TestServer } from '../helpers/test-server.js';
import { runKubectl } from '../helpers/kapi-process.js';
import { spawnKubectl } from '../helpers/kubectl-stream.js';
import { http2Frame } from '../helpers/http2-frame.js';

/** A route that answers with the HTTP version its request came in (a test's view of the protocol from the server side). */
const protocolProbe = defineModule('test-protocol-probe', (c) => {
  c.register(Tokens.Route, {
    useValue: {
      path: '/test-protocol',
      handle(ctx: { req: { httpVersion: string }; body: unknown }) {
        ctx.body = { httpVersion: ctx.req.httpVersion };
      },
    },
  });
});

const maxStreams = 8;
const idleTimeoutMs = 1_000;
let server: TestServer;
let dataDir: string;
let caPem: { certPem: string; keyPem: string };

test.before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kapi-h2-'));
  const pki = await ensurePki(join(dataDir, 'pki'), { hosts: ['127.0.0.1'] });
  caPem = { certPem: pki.caCertPem, keyPem: await readFile(join(dataDir, 'pki', 'ca.key'), 'utf8') };
  const token = `h2-${suffix()}`;
  server = await startTestServer({
    dataDir,
    storage: 'memory',
    config: { http2MaxStreamsPerConnection: maxStreams, idleConnectionTimeoutMs: idleTimeoutMs },
    auth: { token, modules: [staticTokenAuth([{ token, user: adminUser }]), x509ClientCertAuth(join(dataDir, 'pki', 'ca.crt')), rbacAuthorization()] },
    modules: [protocolProbe],
  });
});

test.after.always(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function connect(opts: http2.SecureClientSessionOptions = {}): http2.ClientHttp2Session {
  const session = http2.connect(server.url, { ca: server.ca, ...opts });
  session.on('error', () => {
    // a test that expects the session to end checks 'close'
  });
  return session;
}

interface H2Response {
  status: number;
  headers: http2.IncomingHttpHeaders;
  text: string;
}

/** One request on `session`; the body is read to its end. */
function request(session: http2.ClientHttp2Session, method: string, path: string, body?: unknown, headers: http2.OutgoingHttpHeaders = {}): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': method,
      ':path': path,
      authorization: `Bearer ${server.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    });
    const chunks: Buffer[] = [];
    let head: http2.IncomingHttpHeaders = {};
    stream.on('response', (h) => (head = h));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ status: Number(head[':status']), headers: head, text: Buffer.concat(chunks).toString('utf8') }));
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  });
}

const configMap = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const cmPath = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

/** A watch on `session`: its parsed events as they come, and the stream. */
function watch(session: http2.ClientHttp2Session, path: string): { events: { type: string; object: any }[]; stream: http2.ClientHttp2Stream; headers: Promise<http2.IncomingHttpHeaders> } {
  const stream = session.request({ ':path': path, authorization: `Bearer ${server.token}` });
  const events: { type: string; object: any }[] = [];
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      events.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
    }
  });
  stream.on('error', () => {
    // ended by the test
  });
  return { events, stream, headers: new Promise((resolve) => stream.once('response', resolve)) };
}

test('kubectl speaks HTTP/2 to kapi: its requests arrive as HTTP/2.0, and get, create and watch work over it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-h2-kubectl-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const caFile = join(dir, 'ca.crt');
  await writeFile(caFile, server.ca);
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority': caFile } }],
      users: [{ name: 'u', user: { token: server.token } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  const kubectl = (args: string[]) => runKubectl(args, { env: { KUBECONFIG: kubeconfig, HOME: dir } });

  const probe = await kubectl(['get', '--raw', '/test-protocol']);
  t.is(probe.code, 0, probe.stderr);
  t.deepEqual(JSON.parse(probe.stdout), { httpVersion: '2.0' });

  const ns = `h2-kubectl-${suffix()}`;
  const created = await kubectl(['create', 'namespace', ns]);
  t.is(created.code, 0, created.stderr);
  const got = await kubectl(['get', 'namespace', ns, '-o', 'jsonpath={.metadata.name}']);
  t.is(got.stdout, ns, got.stderr);
  // a watch: it prints the existing ConfigMap, then the one created while it runs
  const session = connect();
  t.teardown(() => session.close());
  t.is((await request(session, 'POST', cmPath(ns), configMap('before'))).status, 201);
  const watching = spawnKubectl({ kubeconfig, home: dir }, ['get', 'configmaps', '-n', ns, '-w', '-o', 'name']);
  t.teardown(() => watching.kill());
  await watching.waitForLine(/^configmap\/before$/);
  t.is((await request(session, 'POST', cmPath(ns), configMap('during'))).status, 201);
  await watching.waitForLine(/^configmap\/during$/);
  t.pass();
});

test('several watches share one HTTP/2 connection, each receiving its own events', async (t) => {
  const ns = await createNamespace(server, 'h2-mux');
  const session = connect();
  t.teardown(() => session.close());
  const colors = ['red', 'green', 'blue'];
  const watches = colors.map((color) => watch(session, `${cmPath(ns)}?watch=1&labelSelector=color%3D${color}`));
  for (const w of watches) t.is(Number((await w.headers)[':status']), 200);
  for (const color of colors) {
    const res = await request(session, 'POST', cmPath(ns), { ...configMap(`cm-${color}`), metadata: { name: `cm-${color}`, labels: { color } } });
    t.is(res.status, 201, res.text);
  }
  await server.waitFor(() => watches.every((w) => w.events.length === 1), 5_000, 'one event on each watch');
  t.deepEqual(
    watches.map((w) => `${w.events[0]!.type} ${w.events[0]!.object.metadata.name}`),
    colors.map((c) => `ADDED cm-${c}`),
  );
  for (const w of watches) w.stream.close();
});

test('a long list streams completely to an HTTP/2 client that reads slowly', async (t) => {
  const ns = await createNamespace(server, 'h2-list');
  const session = connect();
  t.teardown(() => session.close());
  const items = 600; // a list of this many items is written piece by piece
  const data = { v: 'y'.repeat(2_000) };
  await new Promise((resolve) => session.once('remoteSettings', resolve)); // then the client keeps to the stream limit
  await Promise.all(Array.from({ length: items }, (_, i) => request(session, 'POST', cmPath(ns), configMap(`cm-${i}`, data))));
  const stream = session.request({ ':path': cmPath(ns), authorization: `Bearer ${server.token}` });
  const chunks: Buffer[] = [];
  let paused = false;
  stream.on('data', (c: Buffer) => {
    chunks.push(c);
    if (paused) return;
    paused = true;
    stream.pause();
    setTimeout(() => stream.resume(), 1_000);
  });
  await new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
  const list = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  t.is(list.items.length, items);
  t.is(list.items[items - 1].data.v, data.v);
});

test('a client certificate authenticates over HTTP/2, each connection as its own user', async (t) => {
  const alice = await createClientCert(caPem, { username: 'h2-alice', groups: ['h2-team'] }, 3_600_000);
  const bob = await createClientCert(caPem, { username: 'h2-bob', groups: [] }, 3_600_000);
  const whoAmI = async (session: http2.ClientHttp2Session) => {
    const res = await request(session, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { authorization: '' });
    t.is(res.status, 201, res.text);
    const user = JSON.parse(res.text).status.userInfo;
    return `${user.username} ${user.groups.join(',')}`;
  };
  const a = connect({ cert: alice.certPem, key: alice.keyPem });
  const b = connect({ cert: bob.certPem, key: bob.keyPem });
  t.teardown(() => {
    a.close();
    b.close();
  });
  t.is(await whoAmI(a), 'h2-alice h2-team,system:authenticated');
  t.is(await whoAmI(b), 'h2-bob system:authenticated');
  t.is(await whoAmI(a), 'h2-alice h2-team,system:authenticated');
});

test('a body over the limit is refused with 413 and only its stream ends: the connection goes on serving', async (t) => {
  const ns = await createNamespace(server, 'h2-413');
  const session = connect();
  t.teardown(() => session.close());
  const res = await request(session, 'POST', cmPath(ns), Buffer.alloc(4 * 1024 * 1024, 0x20));
  t.is(res.status, 413, res.text);
  t.is(JSON.parse(res.text).reason, 'RequestEntityTooLarge');
  t.is(res.headers.connection, undefined);
  const next = await request(session, 'GET', cmPath(ns));
  t.is(next.status, 200, next.text);
});

/** HPACK (RFC 7541 §6.2.2): each header as a literal without indexing, names and values as plain strings. */
function hpack(headers: [string, string][]): Buffer {
  const int7 = (n: number): number[] => (n < 127 ? [n] : [127, ...(n - 127 < 128 ? [n - 127] : [((n - 127) & 0x7f) | 0x80, (n - 127) >> 7])]);
  return Buffer.concat(headers.map(([name, value]) => Buffer.from([0x00, ...int7(name.length), ...Buffer.from(name), ...int7(value.length), ...Buffer.from(value)])));
}

test('the stream limit is announced in SETTINGS_MAX_CONCURRENT_STREAMS and a stream past it is refused', async (t) => {
  const url = new URL(server.url);
  const socket = tls.connect({ host: url.hostname, port: Number(url.port), ca: server.ca, ALPNProtocols: ['h2'] });
  t.teardown(() => socket.destroy());
  await new Promise((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  t.is(socket.alpnProtocol, 'h2');
  const frames: { type: number; flags: number; stream: number; payload: Buffer }[] = [];
  let input = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    input = Buffer.concat([input, chunk]);
    while (input.length >= 9 && input.length >= 9 + input.readUIntBE(0, 3)) {
      const length = input.readUIntBE(0, 3);
      frames.push({ type: input[3]!, flags: input[4]!, stream: input.readUInt32BE(5) & 0x7fffffff, payload: input.subarray(9, 9 + length) });
      input = input.subarray(9 + length);
    }
  });
  socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
  socket.write(http2Frame(0x4, 0, 0, Buffer.alloc(0))); // our SETTINGS: none
  const serverSettings = await server.waitFor(() => frames.find((f) => f.type === 0x4 && !(f.flags & 0x1)), 5_000, "the server's SETTINGS");
  const settings = new Map<number, number>();
  for (let i = 0; i + 6 <= serverSettings.payload.length; i += 6) settings.set(serverSettings.payload.readUInt16BE(i), serverSettings.payload.readUInt32BE(i + 2));
  t.is(settings.get(0x3), maxStreams); // SETTINGS_MAX_CONCURRENT_STREAMS
  t.is(settings.get(0x4), 256 * 1024); // SETTINGS_INITIAL_WINDOW_SIZE, kube's per-stream upload buffer

  // Creates whose bodies never come: each stream stays open, waiting. The server's SETTINGS are left unacknowledged, so
  // a stream past the limit is refused (REFUSED_STREAM, safe to retry) rather than failing the connection.
  const headers = hpack([
    [':method', 'POST'],
    [':scheme', 'https'],
    [':authority', url.host],
    [':path', '/api/v1/namespaces'],
    ['authorization', `Bearer ${server.token}`],
    ['content-type', 'application/json'],
  ]);
  const ids = Array.from({ length: maxStreams + 1 }, (_, i) => 2 * i + 1);
  for (const id of ids) socket.write(http2Frame(0x1, 0x4, id, headers)); // HEADERS, END_HEADERS, no END_STREAM
  const reset = await server.waitFor(() => frames.find((f) => f.type === 0x3), 5_000, 'a RST_STREAM');
  t.is(reset.stream, ids[maxStreams]);
  t.is(reset.payload.readUInt32BE(0), http2.constants.NGHTTP2_REFUSED_STREAM);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.deepEqual(frames.filter((f) => f.type === 0x3 || f.type === 0x7).map((f) => f.stream), [ids[maxStreams]], 'only that stream is reset');
});

test('an HTTP/2 connection without a stream for the idle timeout is closed with a GOAWAY; one with a quiet watch is not', async (t) => {
  const ns = await createNamespace(server, 'h2-idle');
  const idle = connect();
  const watching = connect();
  t.teardown(() => {
    idle.destroy();
    watching.destroy();
  });
  const goaway = new Promise<number>((resolve) => idle.once('goaway', (code: number) => resolve(code)));
  t.is((await request(idle, 'GET', cmPath(ns))).status, 200);
  const w = watch(watching, `${cmPath(ns)}?watch=1`);
  t.is(Number((await w.headers)[':status']), 200);
  t.is(await goaway, http2.constants.NGHTTP2_NO_ERROR);
  await new Promise((resolve) => idle.once('close', resolve));
  await new Promise((resolve) => setTimeout(resolve, idleTimeoutMs * 2));
  t.false(watching.closed || watching.destroyed);
  t.is((await request(watching, 'POST', cmPath(ns), configMap('after-idle'))).status, 201);
  await server.waitFor(() => w.events.length === 1, 5_000, 'the event on the quiet watch');
  w.stream.close();
});
