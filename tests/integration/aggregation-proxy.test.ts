// A front kapi proxying to an aggregated API server (an HTTPS test backend on a non-loopback address): the APIService
// availability controller's conditions, the requests and headers the backend sees, and kube's answers when it cannot
// be reached.
import test, { type ExecutionContext } from 'ava';
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { createCa, issueCert } from '../../plugins/auth/certificates.js';
import { apiService, backendNamespace, routeServiceToBackend, startAggregatedBackend, type TestAggregatedBackend } from '../helpers/aggregated-backend.js';
import { suffix, useTestServer, type TestServer } from '../helpers/test-server.js';
import { unrelatedCaBundle } from '../helpers/webhook-server.js';

const frontProxyCa = await createCa('front-proxy-ca');
const proxyClient = await issueCert(frontProxyCa, 'front-proxy-client', ['clientAuth'], []);
const front = useTestServer({
  storage: 'memory',
  config: { proxyClient },
  tokens: [{ token: 'nobody-token', user: { username: 'nobody', groups: [] } }],
});

let backend: TestAggregatedBackend;
test.before(async () => {
  backend = await startAggregatedBackend(frontProxyCa.certPem);
});
test.after.always(async () => {
  await backend?.close();
});

const apiServicesPath = '/apis/apiregistration.k8s.io/v1/apiservices';

/** Serves `/apis/<group>/<version>` (the availability check's path) on the backend. */
function serveDiscovery(group: string, version: string): void {
  backend.handle(`/apis/${group}/${version}`, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources: [] }));
  });
}

/** A new group served by the backend through Service `<group prefix>` and an APIService with the backend's caBundle. */
async function registerGroup(spec: Record<string, unknown> = {}): Promise<{ group: string; service: string }> {
  const service = `api-${suffix()}`;
  const group = `${service}.example.com`;
  serveDiscovery(group, 'v1');
  await routeServiceToBackend(front, backend, service);
  const res = await front.request('POST', apiServicesPath, { body: apiService(group, 'v1', service, { caBundle: backend.caBundle, ...spec }) });
  if (res.status !== 201) throw new Error(res.text);
  return { group, service };
}

/** The APIService's Available condition once it has `reason`. */
async function availableWith(server: TestServer, name: string, reason: string): Promise<any> {
  return server.waitFor(async () => {
    const res = await server.request('GET', `${apiServicesPath}/${name}`);
    const condition = res.body.status?.conditions?.find((c: any) => c.type === 'Available');
    return condition?.reason === reason ? condition : undefined;
  }, 15_000, `APIService ${name} to be ${reason}`);
}

test('a reachable backend is Available (Passed); requests reach it as the front\'s user, with the front-proxy certificate and none of the client\'s credentials', async (t) => {
  const { group } = await registerGroup();
  t.like(await availableWith(front, `v1.${group}`, 'Passed'), { status: 'True', message: 'all checks passed' });
  const check = backend.requests.find((r) => r.url === `/apis/${group}/v1`)!;
  t.is(check.headers['x-remote-user'], 'system:kube-aggregator');
  t.deepEqual(check.headersDistinct['x-remote-group'], ['system:masters']);

  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  backend.handle(path, (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-backend': 'yes' }).end('{"kind":"FlunderList","items":[]}'));
  const res = await front.request('GET', `${path}?limit=5&labelSelector=a%3Db%20c`, {
    headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': ['devs', 'system:masters'], 'X-Remote-User': 'mallory', 'X-Remote-Extra-Scopes': 'all' },
  });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { kind: 'FlunderList', items: [] });
  t.is(res.headers['x-backend'], 'yes');
  const seen = backend.requests.findLast((r) => r.url.startsWith(path))!;
  t.is(seen.url, `${path}?labelSelector=a%3Db+c&limit=5`); // as Go re-encodes the query: sorted, space as +
  t.deepEqual(seen.clientCert, { commonName: 'front-proxy-client', authorized: true });
  t.deepEqual(seen.headersDistinct['x-remote-user'], ['alice']);
  t.deepEqual(seen.headersDistinct['x-remote-group'], ['devs', 'system:masters', 'system:authenticated']);
  t.is(seen.headers.authorization, undefined);
  t.deepEqual(Object.keys(seen.headers).filter((h) => h.startsWith('impersonate-') || h.startsWith('x-remote-extra-')), []);
  t.deepEqual(seen.headersDistinct['audit-id'], [res.headers['audit-id']], "the front's audit ID goes to the backend");

  const withOwnId = await front.request('GET', path, { headers: { 'Audit-Id': 'client-chosen-id' } });
  t.is(withOwnId.headers['audit-id'], 'client-chosen-id');
  t.is(backend.requests.findLast((r) => r.url.startsWith(path))!.headers['audit-id'], 'client-chosen-id');
});

test('a request the front refuses never reaches the backend', async (t) => {
  const { group } = await registerGroup();
  await availableWith(front, `v1.${group}`, 'Passed');
  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  const forbidden = await front.request('GET', path, { token: 'nobody-token' });
  t.is(forbidden.status, 403);
  t.is(forbidden.body.message, `flunders.${group} is forbidden: User "nobody" cannot list resource "flunders" in API group "${group}" in the namespace "default"`);
  const unauthorized = await front.request('GET', path, { token: 'wrong' });
  t.is(unauthorized.status, 401);
  t.deepEqual(backend.requests.filter((r) => r.url.startsWith(path)), []);
  backend.handle(path, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'));
  t.is((await front.request('GET', path)).status, 200); // the admin's request does
  t.deepEqual(backend.requests.filter((r) => r.url.startsWith(path)).map((r) => r.headers['x-remote-user']), ['kapi-admin']);
});

test('watches stream event by event, request bodies reach the backend, and whatever it answers is passed through', async (t) => {
  const { group } = await registerGroup();
  await availableWith(front, `v1.${group}`, 'Passed');
  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  backend.handle(path, (req, res, body) => {
    if (req.method === 'POST') return void res.writeHead(201, { 'content-type': 'application/json' }).end(body);
    if (!req.url?.includes('watch=true')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('not json at all');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"type":"ADDED","object":{"kind":"Flunder","metadata":{"name":"a"}}}\n');
    void released.then(() => res.end('{"type":"ADDED","object":{"kind":"Flunder","metadata":{"name":"b"}}}\n'));
  });
  const watch = await front.watch(`${path}?watch=true`);
  t.is(watch.status, 200);
  t.is((await watch.next(5000)).object.metadata.name, 'a'); // before the backend has finished
  release();
  t.is((await watch.next(5000)).object.metadata.name, 'b');
  await watch.ended;

  const flunder = { apiVersion: `${group}/v1`, kind: 'Flunder', metadata: { name: 'x' }, spec: { size: 'large'.repeat(1000) } };
  const created = await front.request('POST', path, { body: flunder, chunked: true });
  t.is(created.status, 201);
  t.deepEqual(created.body, flunder);

  const garbage = await front.request('GET', path);
  t.is(garbage.status, 200);
  t.is(garbage.text, 'not json at all');

  // no HTTP at all: Go's transport error, as kube's proxy answers it
  backend.handle(`/apis/${group}/v1/namespaces/default/gadgets`, (req) => req.socket.end('garbage here\r\n\r\n'));
  const malformed = await front.request('GET', `/apis/${group}/v1/namespaces/default/gadgets`);
  t.is(malformed.status, 503);
  t.is(malformed.text, 'net/http: HTTP/1.x transport connection broken: malformed HTTP response "garbage here"\n');
});

test('a client speaking HTTP/2 to the front: a body without Content-Length reaches the backend, a GET reaches it without one', async (t) => {
  const { group } = await registerGroup();
  await availableWith(front, `v1.${group}`, 'Passed');
  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  backend.handle(path, (req, res, body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body })));
  const session = http2.connect(front.url, { ca: front.ca });
  t.teardown(() => session.close());
  const send = (method: string, body?: string) =>
    new Promise<unknown>((resolve, reject) => {
      const stream = session.request({ ':method': method, ':path': path, authorization: `Bearer ${front.token}`, 'content-type': 'application/json' }, { endStream: body === undefined });
      let answer = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (answer += chunk));
      stream.on('end', () => resolve(JSON.parse(answer)));
      stream.on('error', reject);
      if (body !== undefined) stream.end(body);
    });
  t.deepEqual(await send('POST', '{"kind":"Flunder"}'), { method: 'POST', body: '{"kind":"Flunder"}' });
  t.deepEqual(await send('GET'), { method: 'GET', body: '' });
  const seen = backend.requests.filter((r) => r.url === path);
  t.is(seen.find((r) => r.method === 'GET')?.headers['transfer-encoding'], undefined);
});

test('a Service that is missing, or has no endpoint, makes the APIService unavailable: kube\'s reasons, and 503 service unavailable', async (t) => {
  const group = `missing-${suffix()}.example.com`;
  const service = `svc-${suffix()}`;
  const created = await front.request('POST', apiServicesPath, { body: apiService(group, 'v1', service, { caBundle: backend.caBundle }) });
  t.is(created.status, 201, created.text);
  const name = `v1.${group}`;
  t.like(await availableWith(front, name, 'ServiceNotFound'), { status: 'False', message: `service/${service} in "${backendNamespace}" is not present` });
  const res = await front.request('GET', `/apis/${group}/v1/namespaces/default/flunders`);
  t.is(res.status, 503);
  t.is(res.headers['content-type'], 'text/plain; charset=utf-8');
  t.is(res.text, 'service unavailable\n');

  const svc = await front.request('POST', `/api/v1/namespaces/${backendNamespace}/services`, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: service }, spec: { ports: [{ port: 443, name: 'https' }] } } });
  t.is(svc.status, 201, svc.text);
  t.like(await availableWith(front, name, 'EndpointsNotFound'), { status: 'False', message: `cannot find endpoints for service/${service} in "${backendNamespace}"` });
  const endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: service }, subsets: [{ notReadyAddresses: [{ ip: backend.ip }], ports: [{ port: backend.port, name: 'https' }] }] };
  t.is((await front.request('POST', `/api/v1/namespaces/${backendNamespace}/endpoints`, { body: endpoints })).status, 201);
  t.like(await availableWith(front, name, 'MissingEndpoints'), { status: 'False', message: `endpoints for service/${service} in "${backendNamespace}" have no addresses with port name "https"` });
  t.is((await front.request('GET', `/apis/${group}/v1`)).text, 'service unavailable\n');
});

test.serial('a stopped backend fails the discovery check and requests are 503; started again, it recovers', async (t) => {
  const { group, service } = await registerGroup();
  const name = `v1.${group}`;
  await availableWith(front, name, 'Passed');
  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  backend.handle(path, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'));
  t.is((await front.request('GET', path)).status, 200);

  await backend.stop();
  try {
    // the backend is gone, as its port refuses connections: the request's own dial fails first
    const refused = await front.request('GET', path);
    t.is(refused.status, 503);
    t.is(refused.text, `dial tcp ${backend.ip}:${backend.port}: connect: connection refused\n`);
    // an Endpoints change has the controller check at once (as kube's), not at its next resync
    const touched = await front.request('PATCH', `/api/v1/namespaces/${backendNamespace}/endpoints/${service}`, { body: { metadata: { annotations: { touched: 'yes' } } }, contentType: 'application/merge-patch+json' });
    t.is(touched.status, 200, touched.text);
    const url = `https://${backend.ip}:${backend.port}/apis/${group}/v1`;
    t.like(await availableWith(front, name, 'FailedDiscoveryCheck'), {
      status: 'False',
      message: `failing or missing response from ${url}: Get "${url}": dial tcp ${backend.ip}:${backend.port}: connect: connection refused`,
    });
    const unavailable = await front.request('GET', path);
    t.is(unavailable.status, 503);
    t.is(unavailable.text, 'service unavailable\n');
  } finally {
    await backend.start();
  }
  await availableWith(front, name, 'Passed'); // the failed check is retried with backoff
  t.is((await front.request('GET', path)).status, 200);
});

test('a caBundle that did not sign the backend\'s certificate: Available (kube\'s check verifies nothing), requests 503 with the TLS error', async (t) => {
  const { group } = await registerGroup({ caBundle: await unrelatedCaBundle() });
  t.like(await availableWith(front, `v1.${group}`, 'Passed'), { status: 'True' });
  const res = await front.request('GET', `/apis/${group}/v1/namespaces/default/flunders`);
  t.is(res.status, 503);
  t.is(res.text, 'tls: failed to verify certificate: x509: certificate signed by unknown authority\n');

  const { group: insecure } = await registerGroup({ caBundle: undefined, insecureSkipTLSVerify: true });
  await availableWith(front, `v1.${insecure}`, 'Passed');
  t.is((await front.request('GET', `/apis/${insecure}/v1`)).status, 200);
});

test('a backend that hangs: the request times out as kube\'s do (504 Status), a discovery document after 5s (503); a malformed timeout is the front\'s 400', async (t) => {
  const { group } = await registerGroup();
  await availableWith(front, `v1.${group}`, 'Passed');
  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  backend.handle(path, () => {});
  const res = await front.request('GET', `${path}?timeout=1s`);
  t.is(res.status, 504);
  t.like(res.body, { kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504, message: 'Timeout: request did not complete within requested timeout - context deadline exceeded' });
  const malformed = await front.request('GET', `${path}?timeout=soon`);
  t.like(malformed.body, { code: 400, reason: 'BadRequest', message: 'invalid timeout specified in the request URL - time: invalid duration "soon"' }, 'answered by the front');

  backend.handle(`/apis/${group}/v1`, () => {});
  const discovery = await front.request('GET', `/apis/${group}/v1`);
  t.is(discovery.status, 503);
  t.is(discovery.text, 'context deadline exceeded\n');
});

/** A backend offering HTTP/2, registered for a group of its own under an APIService that is Available. */
async function availableHttp2Backend(t: ExecutionContext, prefix: string): Promise<{ h2: TestAggregatedBackend; group: string }> {
  const h2 = await startAggregatedBackend(frontProxyCa.certPem, { http2: true });
  t.teardown(() => h2.close());
  const service = `${prefix}-${suffix()}`;
  const group = `${service}.example.com`;
  h2.handle(`/apis/${group}/v1`, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/v1`, resources: [] }));
  });
  await routeServiceToBackend(front, h2, service);
  t.is((await front.request('POST', apiServicesPath, { body: apiService(group, 'v1', service, { caBundle: h2.caBundle }) })).status, 201);
  await availableWith(front, `v1.${group}`, 'Passed');
  return { h2, group };
}

test('to a backend that offers HTTP/2, the front multiplexes requests and watches on one connection; bodies arrive; a client that goes away resets its stream', async (t) => {
  const { h2, group } = await availableHttp2Backend(t, 'h2');

  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  let watchClosed!: () => void;
  const backendWatchClosed = new Promise<void>((resolve) => (watchClosed = resolve));
  h2.handle(path, (req, res, body) => {
    if (!req.url?.includes('watch=true')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"type":"ADDED","object":{"kind":"Flunder","metadata":{"name":"a"}}}\n');
    res.on('close', watchClosed);
  });
  const sessionsBefore = h2.http2Sessions;
  const watches = await Promise.all([front.watch(`${path}?watch=true`), front.watch(`${path}?watch=true&labelSelector=x`)]);
  for (const w of watches) t.is((await w.next(5000)).object.metadata.name, 'a');
  const answers = await Promise.all(['GET', 'POST', 'DELETE'].map((method) => front.request(method, path, method === 'GET' ? {} : { body: { kind: 'DeleteOptions', method } })));
  t.deepEqual(
    answers.map((a) => a.body),
    [
      { method: 'GET', body: '' },
      { method: 'POST', body: '{"kind":"DeleteOptions","method":"POST"}' },
      { method: 'DELETE', body: '{"kind":"DeleteOptions","method":"DELETE"}' },
    ],
  );
  const proxied = h2.requests.filter((r) => r.url.startsWith(path));
  t.true(proxied.length >= 5);
  t.true(proxied.every((r) => r.httpVersion === '2.0'));
  // as Go's transport sends them: a request without a body is one HEADERS frame that ends the stream
  t.deepEqual(
    proxied
      .filter((r) => !r.url.includes('watch=true'))
      .map((r) => [r.method, r.endedWithHeaders])
      .sort(),
    [
      ['DELETE', false],
      ['GET', true],
      ['POST', false],
    ],
  );
  t.true(h2.http2Sessions - sessionsBefore <= 1, `${h2.http2Sessions - sessionsBefore} new connections for 5 requests`);

  watches[0]!.close();
  await backendWatchClosed;
  watches[1]!.close();
});

test('a request the backend refuses unprocessed (its stream past a GOAWAY) is sent again on a new connection, once', async (t) => {
  const { h2, group } = await availableHttp2Backend(t, 'goaway');

  // The backend's GOAWAY lets through only the streams before the request's: as a server shutting down gracefully, it
  // has not processed the request.
  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  const refuseOn = new WeakSet<object>();
  h2.handle(path, (req, res) => {
    const stream = (req as unknown as http2.Http2ServerRequest).stream;
    const session = stream.session!;
    if (refuseOn.has(session)) return void session.goaway(http2.constants.NGHTTP2_NO_ERROR, stream.id! - 2);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'FlunderList', items: [] }));
    refuseOn.add(session); // the next request on this connection is refused
  });
  t.is((await front.request('GET', path)).status, 200);
  const sessionsBefore = h2.http2Sessions;
  const refused = await front.request('GET', path);
  t.is(refused.status, 200, refused.text);
  t.deepEqual(refused.body, { kind: 'FlunderList', items: [] });
  t.is(h2.http2Sessions, sessionsBefore + 1, 'sent again on a new connection');
  t.is(h2.requests.filter((r) => r.url === path).length, 3);
});

test('over HTTP/2 to the backend: a user with thousands of groups reaches it, an answer with hundreds of warnings comes back', async (t) => {
  const { h2, group } = await availableHttp2Backend(t, 'headers');
  const path = `/apis/${group}/v1/namespaces/default/flunders`;
  const warnings = Array.from({ length: 300 }, (_, i) => `299 - "warning ${i}"`);
  h2.handle(path, (_req, res) => {
    res.setHeader('warning', warnings);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"FlunderList","items":[]}');
  });
  const groups = ['system:masters', ...Array.from({ length: 3000 }, (_, i) => `group-number-${i}`)];
  const res = await front.request('GET', path, { headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': groups } });
  t.is(res.status, 200, res.text);
  t.is(res.headers.warning?.split(', 299').length, 300);
  const seen = h2.requests.findLast((r) => r.url === path)!;
  t.is(String(seen.headers['x-remote-group']).split(', ').length, 3002, 'and system:authenticated'); // repeated HTTP/2 fields, joined by Node
});

interface UpgradeAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** A 101's connection, with what came after its headers first; or the body of any other answer. */
  socket?: Duplex;
  head?: Buffer;
  body?: string;
}

/** Asks the front to switch protocols to `kapi-test-echo` on `path`, over an HTTP/1.1 connection of its own (as kubectl exec does). */
function upgradeRequest(path: string, token = front.token): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(path, front.url), { ca: front.ca, agent: false, headers: { authorization: `Bearer ${token}`, connection: 'Upgrade', upgrade: 'kapi-test-echo' } });
    req.once('upgrade', (res, socket, head) => resolve({ status: res.statusCode!, headers: res.headers, socket, head }));
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What a switched connection has sent so far, and a wait for some text in it. */
function received(socket: Duplex, head: Buffer): { until(text: string): Promise<void> } {
  let text = head.toString('utf8');
  const waiting = new Set<() => void>();
  socket.on('data', (c: Buffer) => {
    text += c.toString('utf8');
    for (const check of waiting) check();
  });
  return {
    until: (wanted) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`never received ${JSON.stringify(wanted)}; got ${JSON.stringify(text)}`)), 5000);
        const check = () => {
          if (!text.includes(wanted)) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
  };
}

test('a request that switches protocols (kubectl exec, a websocket) is tunnelled to the backend as the front\'s user and outlives its deadline; one the front refuses never reaches it; a backend that does not switch is answered through', async (t) => {
  const { group } = await registerGroup();
  await availableWith(front, `v1.${group}`, 'Passed');
  const path = `/apis/${group}/v1/namespaces/default/flunders/f1/console`;
  let backendSideClosed!: () => void;
  const closed = new Promise<void>((resolve) => (backendSideClosed = resolve));
  backend.handleUpgrade(path, (req, socket) => {
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${req.headers.upgrade}\r\nConnection: Upgrade\r\nX-Backend: yes\r\n\r\nhello\n`);
    socket.on('data', (d: Buffer) => socket.write(d.toString('utf8').toUpperCase()));
    socket.once('close', backendSideClosed);
  });
  const up = await upgradeRequest(`${path}?timeout=3s`);
  t.is(up.status, 101, up.body);
  t.like(up.headers, { upgrade: 'kapi-test-echo', connection: 'Upgrade', 'x-backend': 'yes' });
  const tunnel = received(up.socket!, up.head!);
  await tunnel.until('hello\n');
  up.socket!.write('ping\n');
  await tunnel.until('PING\n');
  await new Promise((resolve) => setTimeout(resolve, 3500)); // past the request's 3 s deadline (room for a loaded machine before the switch)
  up.socket!.write('still there\n');
  await tunnel.until('STILL THERE\n');
  const seen = backend.requests.findLast((r) => r.url.startsWith(path))!;
  t.like(seen, { method: 'GET', httpVersion: '1.1', url: `${path}?timeout=3s` });
  t.like(seen.headers, { connection: 'Upgrade', upgrade: 'kapi-test-echo', 'x-remote-user': 'kapi-admin', authorization: undefined });
  t.deepEqual(seen.clientCert, { commonName: 'front-proxy-client', authorized: true });
  up.socket!.end();
  await closed; // the client's end reaches the backend

  const requestsBefore = backend.requests.length;
  const refused = await upgradeRequest(path, 'nobody-token');
  t.is(refused.status, 403);
  t.like(JSON.parse(refused.body!), { kind: 'Status', reason: 'Forbidden' });
  t.is(refused.headers.connection, 'close');
  t.is(backend.requests.length, requestsBefore);

  const attach = `/apis/${group}/v1/namespaces/default/flunders/f1/attach`;
  backend.handleUpgrade(attach, (_req, socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 24\r\n\r\nUpgrade request required'));
  const notSwitched = await upgradeRequest(attach);
  t.is(notSwitched.status, 400);
  t.is(notSwitched.body, 'Upgrade request required');
});

test('a request asking to switch protocols on a path the front serves itself is answered as any request, and its connection closed; one with a body is a plain 400', async (t) => {
  const res = await upgradeRequest('/api/v1/namespaces/default');
  t.is(res.status, 200, res.body);
  t.like(JSON.parse(res.body!), { kind: 'Namespace', metadata: { name: 'default' } });
  t.is(res.headers.connection, 'close');
  const missing = await upgradeRequest('/api/v1/namespaces/default/pods/p/exec');
  t.is(missing.status, 404);

  // Node hands over what follows its headers as raw bytes: a body would be lost, so it is refused as Go refuses what it cannot parse
  const withBody = await rawExchange(`POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${front.token}\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nContent-Length: 2\r\n\r\n{}`);
  t.regex(withBody, /^HTTP\/1\.1 400 Bad Request\r\n[^]*\r\n\r\n400 Bad Request$/);
});

test('a request asking to switch protocols pipelined behind others waits for their answers, then gets its own', async (t) => {
  const get = (path: string, upgrade = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${front.token}\r\n${upgrade}\r\n`;
  const answers = await rawExchange(get('/version') + get('/version') + get('/api/v1/namespaces/default', 'Connection: Upgrade\r\nUpgrade: kapi-test-echo\r\n'));
  t.deepEqual(answers.match(/HTTP\/1\.1 \d{3} /g), ['HTTP/1.1 200 ', 'HTTP/1.1 200 ', 'HTTP/1.1 200 ']);
  t.regex(answers, /"kind":"Namespace"/);
  t.is((await front.request('GET', '/version')).status, 200, 'the server is still up');
});

/** Writes `request` on a TLS connection of its own and resolves with everything the server sent until it closed. */
function rawExchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = new URL(front.url);
    const socket = tls.connect({ host: url.hostname, port: Number(url.port), ca: front.ca }, () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}
