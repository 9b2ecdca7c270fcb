/**
 * `ApiServer.shutdown()`, kube-apiserver's graceful termination, in its order: /readyz fails while requests are still
 * served during the delay; then new requests are refused as kube refuses them, watches end cleanly (the stream's
 * proper end) and requests in flight finish before the server closes.
 */
import test from 'ava';
import tls from 'node:tls';
import { resourceModule, Tokens, type Module, type RestStorage } from '../../index.js';
import { startTestServer, waitFor, type TestServer } from '../helpers/test-server.js';

const configMaps = '/api/v1/namespaces/default/configmaps';

/** A route `/slow` whose requests stay in flight until `release()`. */
function slowRoute() {
  let entered!: () => void;
  let release!: () => void;
  const enteredP = new Promise<void>((r) => (entered = r));
  const released = new Promise<void>((r) => (release = r));
  const module: Module = (c) => {
    c.register(Tokens.Route, {
      useValue: {
        path: '/slow',
        async handle(ctx: { body: unknown }) {
          entered();
          await released;
          ctx.body = 'done';
        },
      },
    });
  };
  return { module, entered: enteredP, release };
}

/**
 * A connection with a GET whose header is sent but for its last line: the server has a request in progress on it (so
 * closing idle connections leaves it open) and handles the request when `finish()` sends the rest.
 */
async function partialRequest(server: TestServer, path: string) {
  const { port } = new URL(server.url);
  const socket = tls.connect({ host: '127.0.0.1', port: Number(port), ca: server.ca, servername: 'localhost' });
  await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n`);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  return {
    async finish() {
      socket.write('\r\n');
      await closed;
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { status: Number(statusLine.split(' ')[1]), headers, body };
    },
  };
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });

test('/readyz fails during the delay while requests are served; then connections are refused, a request arriving on an open connection is 503, watches end cleanly and the request in flight finishes', async (t) => {
  const slow = slowRoute();
  const server = await startTestServer({ storage: 'memory', modules: [slow.module] });
  t.regex((await server.request('GET', '/readyz?verbose')).text, /\[\+\]shutdown ok\nreadyz check passed\n$/, 'the last readiness check');
  t.notRegex((await server.request('GET', '/livez?verbose')).text, /shutdown/, 'a readiness check only');
  const watch = await server.watch(`${configMaps}?watch=1`);
  const inFlight = server.request('GET', '/slow');
  await slow.entered;
  const late = await partialRequest(server, configMaps);
  let finished = false;
  const shutdown = server.shutdown({ delayMs: 1500 }).then(() => (finished = true));

  // The delay: not ready, still serving.
  const readyz = await server.request('GET', '/readyz');
  t.is(readyz.status, 500);
  t.regex(readyz.text, /^\[\+\]ping ok\n/);
  t.regex(readyz.text, /\[-\]shutdown failed: reason withheld\nreadyz check failed\n$/);
  const check = await server.request('GET', '/readyz/shutdown');
  t.is(check.status, 500);
  t.is(check.text, 'internal server error: process is shutting down\n');
  t.is((await server.request('GET', '/livez')).status, 200, 'only readiness fails');
  t.is((await server.request('POST', configMaps, { body: configMap('during-delay') })).status, 201);

  // Then: no new connections.
  const refusal = await waitFor(() => server.request('GET', '/version').then(() => undefined, (err: Error) => err.message), 10_000, 'new connections to be refused');
  t.regex(refusal, /ECONNREFUSED/);
  t.is(await watch.outcome, 'end', 'the watch ends with its stream properly ended');
  t.true(watch.events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'during-delay'), 'the watch saw the write made during the delay');

  const refused = await late.finish();
  t.is(refused.status, 503);
  t.is(refused.headers['retry-after'], '1');
  t.is(refused.headers['connection'], 'close');
  t.deepEqual(JSON.parse(refused.body), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'apiserver is shutting down',
    reason: 'ServiceUnavailable',
    code: 503,
  });

  t.false(finished, 'the shutdown waits for the request in flight');
  slow.release();
  const res = await inFlight;
  t.is(res.status, 200);
  t.is(res.text, 'done');
  t.is(res.headers['connection'], 'close', 'its connection is not kept alive');
  await shutdown;
});

test('with sendRetryAfter the server keeps listening and answers new requests 429 with Retry-After and Connection: close until the requests in flight are done; health and kube-apiserver loopback requests are served', async (t) => {
  const slow = slowRoute();
  const server = await startTestServer({ storage: 'memory', modules: [slow.module] });
  const inFlight = server.request('GET', '/slow');
  await slow.entered;
  let finished = false;
  const shutdown = server.shutdown({ sendRetryAfter: true }).then(() => (finished = true));

  for (const path of ['/api/v1/namespaces', `${configMaps}?watch=1`]) {
    const refused = await server.request('GET', path);
    t.is(refused.status, 429, path);
    t.is(refused.headers['retry-after'], '5');
    t.is(refused.headers['connection'], 'close');
    t.is(refused.headers['content-type'], 'text/plain; charset=utf-8');
    t.is(refused.headers['x-content-type-options'], 'nosniff');
    t.is(refused.text, 'The apiserver is shutting down, please try again later.\n');
  }
  t.is((await server.request('GET', '/readyz')).status, 500);
  t.is((await server.request('GET', '/livez')).status, 200);
  t.is((await server.request('GET', '/api/v1/namespaces', { headers: { 'user-agent': 'kube-apiserver/v1.32.0 (linux/amd64) kubernetes/abc' } })).status, 200);

  t.false(finished, 'the shutdown waits for the request in flight');
  slow.release();
  t.is((await inFlight).status, 200);
  await shutdown;
  await t.throwsAsync(server.request('GET', '/version'), { message: /ECONNREFUSED/ }, 'it stops listening once drained');
});

test('requests still in flight at the timeout do not hold the shutdown', async (t) => {
  const slow = slowRoute();
  const server = await startTestServer({ storage: 'memory', modules: [slow.module] });
  const inFlight = server.request('GET', '/slow').catch((err: Error) => err);
  await slow.entered;
  await server.shutdown({ timeoutMs: 200 });
  t.regex(String(await inFlight), /socket hang up|ECONNRESET/);
  slow.release();
});

test('a watch that starts once requests are refused is refused too (503 without sendRetryAfter)', async (t) => {
  const slow = slowRoute();
  const server = await startTestServer({ storage: 'memory', modules: [slow.module] });
  const late = await partialRequest(server, `${configMaps}?watch=1`);
  const inFlight = server.request('GET', '/slow');
  await slow.entered;
  const shutdown = server.shutdown();
  const refused = await late.finish();
  t.is(refused.status, 503);
  t.is(JSON.parse(refused.body).message, 'apiserver is shutting down');
  slow.release();
  await inFlight;
  await shutdown;
});

test('a watch of a resource served from its own RestStorage ends cleanly too, its storage\'s signal aborted', async (t) => {
  let aborted = false;
  const storage: RestStorage = {
    async *watch(ctx) {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = true;
    },
  };
  const server = await startTestServer({
    storage: 'memory',
    modules: [resourceModule({ group: 'shutdown.example.com', versions: ['v1'], kind: 'Beacon', plural: 'beacons', scope: 'Namespaced', storage })],
  });
  const watch = await server.watch('/apis/shutdown.example.com/v1/namespaces/default/beacons?watch=1');
  t.is(watch.status, 200);
  await server.shutdown();
  t.is(await watch.outcome, 'end');
  t.true(aborted);
});
