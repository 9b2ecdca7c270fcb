import test from 'ava';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { requestStream } from '../../../../lib/http2/client-request.js';

const nodeBind = AsyncResource.prototype.bind;

async function h2Server(t: import('ava').ExecutionContext): Promise<http2.ClientHttp2Session> {
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    stream.respond({ ':status': 200 });
    stream.end(String(headers[':path']));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  t.teardown(() => {
    session.destroy();
    server.close();
  });
  await new Promise((resolve) => session.once('connect', resolve));
  return session;
}

test('a stream started by requestStream answers in the async context it was started in, and Node\'s AsyncResource#bind is back afterwards', async (t) => {
  const session = await h2Server(t);
  const context = new AsyncLocalStorage<string>();
  const seen = await context.run('request-1', () => new Promise<{ store: string | undefined; body: string }>((resolve) => {
    const stream = requestStream(session, { ':path': '/widgets' }, { endStream: true });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve({ store: context.getStore(), body }));
  }));
  t.deepEqual(seen, { store: 'request-1', body: '/widgets' });
  t.is(AsyncResource.prototype.bind, nodeBind);
});

test('when the session refuses the request, the error is thrown and AsyncResource#bind is Node\'s again', async (t) => {
  const session = await h2Server(t);
  session.destroy();
  t.throws(() => requestStream(session, { ':path': '/widgets' }, { endStream: true }), { code: 'ERR_HTTP2_INVALID_SESSION' });
  t.is(AsyncResource.prototype.bind, nodeBind);
});
