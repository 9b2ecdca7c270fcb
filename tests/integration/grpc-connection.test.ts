/**
 * kapi's gRPC client (on node:http2) against Node's own HTTP/2 server answering as a gRPC server would. It checks what
 * etcd does not exercise: the server's stream limit, send-side flow control on a small window, trailers-only errors
 * with percent-encoded messages, a GOAWAY, and a connection cut while a call waits.
 */
import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import test from 'ava';
import { GrpcConnection } from '../../plugins/storage/etcd/grpc/grpc-connection.js';
import { GrpcError } from '../../plugins/storage/etcd/grpc/grpc-error.js';
import { http2Frame } from '../helpers/http2-frame.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const frame = (body: Buffer) => {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
};
const soon = () => Date.now() + 5_000;

/** An HTTP/2 server on loopback whose streams `handle` answers; closed after the test. */
async function server(
  t: { teardown(fn: () => unknown): void },
  handle: (stream: http2.ServerHttp2Stream, body: Buffer, path: string, headers: http2.IncomingHttpHeaders) => void,
  settings: http2.Settings = {},
) {
  const srv = http2.createServer({ settings });
  const sessions = new Set<http2.ServerHttp2Session>();
  srv.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  srv.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('error', () => undefined); // a stream the test resets ends with an error on this side too
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => handle(stream, Buffer.concat(chunks), String(headers[':path']), headers));
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  const conn = new GrpcConnection({ url: `http://127.0.0.1:${port}` });
  t.teardown(() => {
    conn.close();
    for (const session of sessions) session.destroy();
    return new Promise((resolve) => srv.close(resolve));
  });
  return { conn, sessions, port };
}

/** Answers a unary call with `message` and status OK (headers, data, trailers). */
function answer(stream: http2.ServerHttp2Stream, message: Buffer) {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  stream.end(frame(message));
}

test('calls beyond the server\'s stream limit wait for a free stream and all complete', async (t) => {
  let open = 0;
  let most = 0;
  const { conn } = await server(
    t,
    (stream, body) => {
      open++;
      most = Math.max(most, open);
      setTimeout(() => {
        open--;
        answer(stream, body.subarray(5));
      }, 20);
    },
    { maxConcurrentStreams: 2 },
  );
  const replies = await Promise.all(
    Array.from({ length: 10 }, (_, i) => conn.unary('/test.Echo/Call', frame(Buffer.from(`call ${i}`)), soon())),
  );
  t.deepEqual(
    replies.map((r) => r.toString()),
    Array.from({ length: 10 }, (_, i) => `call ${i}`),
  );
  t.true(most <= 2, `the server saw ${most} streams at once`);
});

test('a request larger than the server\'s window arrives whole (send-side flow control)', async (t) => {
  const { conn } = await server(t, (stream, body) => answer(stream, Buffer.from(String(body.length - 5))), {
    initialWindowSize: 1000,
  });
  const big = Buffer.alloc(300_000, 'x');
  const [a, b] = await Promise.all([conn.unary('/test.Size/Call', frame(big), soon()), conn.unary('/test.Size/Call', frame(big), soon())]);
  t.is(a.toString(), '300000');
  t.is(b.toString(), '300000');
});

test('a trailers-only error is a GrpcError with the code and the decoded message', async (t) => {
  const { conn } = await server(t, (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '9', 'grpc-message': 'etcdserver: 100%25 sure' }, { endStream: true });
  });
  const err = await t.throwsAsync(conn.unary('/test.Fail/Call', frame(Buffer.from('x')), soon()), { instanceOf: GrpcError });
  t.is(err!.code, 9);
  t.is(err!.message, '9 FAILED_PRECONDITION: etcdserver: 100% sure');
});

test('a stream the server refuses (REFUSED_STREAM) is sent again; one it keeps refusing fails as not sent', async (t) => {
  let attempts = 0;
  const { conn } = await server(t, (stream, body) => {
    const text = body.subarray(5).toString();
    attempts++;
    if (text === 'always' || attempts === 1) stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
    else answer(stream, Buffer.from(text));
  });
  t.is((await conn.unary('/test.Echo/Call', frame(Buffer.from('once')), soon())).toString(), 'once');
  t.is(attempts, 2);
  const err = await t.throwsAsync(conn.unary('/test.Echo/Call', frame(Buffer.from('always')), soon()), { instanceOf: GrpcError });
  t.is(err!.code, 14);
  t.true(err!.notSent);
});

test('a GOAWAY: the call in flight still completes, the next call opens a new connection', async (t) => {
  let release: (() => void) | undefined;
  const { conn, sessions } = await server(t, (stream, body) => {
    const text = body.subarray(5).toString();
    if (text === 'hold') release = () => answer(stream, Buffer.from('late'));
    else answer(stream, Buffer.from(text));
  });
  const pending = conn.unary('/test.Echo/Call', frame(Buffer.from('hold')), soon());
  while (!release) await new Promise((resolve) => setTimeout(resolve, 5));
  const first = [...sessions][0]!;
  first.close(); // GOAWAY naming the held stream as processed; the connection ends once it is answered
  await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  t.is((await pending).toString(), 'late');
  t.is((await conn.unary('/test.Echo/Call', frame(Buffer.from('next')), soon())).toString(), 'next');
  t.false(sessions.has(first));
  t.is(sessions.size, 1);
});

test('a connection cut while a call waits for its answer: UNAVAILABLE with the outcome unknown; the next call reconnects', async (t) => {
  let held = false;
  const { port } = await server(t, (stream, body) => {
    if (body.subarray(5).toString() === 'hold') held = true;
    else answer(stream, body.subarray(5));
  });
  const proxy = await startTcpProxy(port);
  const conn = new GrpcConnection({ url: `http://127.0.0.1:${proxy.port}` });
  t.teardown(async () => {
    conn.close();
    await proxy.close();
  });
  const pending = conn.unary('/test.Echo/Call', frame(Buffer.from('hold')), soon());
  while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
  proxy.cutAll();
  const err = await t.throwsAsync(pending, { instanceOf: GrpcError });
  t.is(err!.code, 14);
  t.false(err!.notSent, 'the server had the request: it may have acted on it');
  t.regex(err!.message, /^14 UNAVAILABLE: connection to etcd lost: /);
  t.is((await conn.unary('/test.Echo/Call', frame(Buffer.from('again')), soon())).toString(), 'again');
});

test('a deadline ends a call the server never answers, and the connection stays usable', async (t) => {
  const { conn } = await server(t, (stream, body) => {
    if (body.subarray(5).toString() !== 'hang') answer(stream, body.subarray(5));
  });
  const err = await t.throwsAsync(conn.unary('/test.Echo/Call', frame(Buffer.from('hang')), Date.now() + 200), { instanceOf: GrpcError });
  t.is(err!.code, 4);
  t.is((await conn.unary('/test.Echo/Call', frame(Buffer.from('after')), soon())).toString(), 'after');
});

test('a server that stopped answering: a timed-out call pings it, and the unanswered ping drops the connection', async (t) => {
  let connections = 0;
  const silent = net.createServer(() => connections++);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  // The ping's timeout is far longer than the call's deadline, so a busy machine cannot reorder the two.
  const conn = new GrpcConnection({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, keepaliveTimeoutMs: 1_000 });
  t.teardown(() => {
    conn.close();
    silent.close();
  });
  const call = () => conn.unary('/test.Echo/Call', frame(Buffer.from('x')), Date.now() + 100);
  t.is((await t.throwsAsync(call(), { instanceOf: GrpcError }))!.code, 4);
  t.is(connections, 1);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.is((await t.throwsAsync(call(), { instanceOf: GrpcError }))!.code, 4);
  t.is(connections, 2, 'the second call went out on a new connection');
});

test('a unary call tells the server its deadline in grpc-timeout, as whole milliseconds left', async (t) => {
  const seen: (string | undefined)[] = [];
  const { conn } = await server(t, (stream, _body, _path, headers) => {
    seen.push(headers['grpc-timeout'] as string | undefined);
    answer(stream, Buffer.from('ok'));
  });
  await conn.unary('/etcdserverpb.KV/Range', frame(Buffer.alloc(0)), Date.now() + 3_000);
  await conn.unary('/etcdserverpb.KV/Range', frame(Buffer.alloc(0)), Date.now() + 200_000_000);
  t.is(seen.length, 2);
  const first = /^(\d{1,8})m$/.exec(seen[0] ?? '');
  t.truthy(first, `grpc-timeout ${seen[0]}`);
  t.true(Number(first![1]) > 2_000 && Number(first![1]) <= 3_000, `grpc-timeout ${seen[0]}`);
  t.is(seen[1], '99999999m', 'at most 8 digits');
});

test('a header block continued without end (a CONTINUATION flood) ends the connection with a GOAWAY instead of being buffered', async (t) => {
  let received = Buffer.alloc(0);
  const flood = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      const first = received.length === 0;
      received = Buffer.concat([received, chunk]);
      if (!first) return;
      socket.write(http2Frame(0x4, 0, 0, Buffer.alloc(0))); // SETTINGS
      socket.write(http2Frame(0x1, 0, 1, Buffer.alloc(16_384))); // HEADERS without END_HEADERS
      for (let i = 0; i < 64; i++) socket.write(http2Frame(0x9, 0, 1, Buffer.alloc(16_384))); // CONTINUATION
    });
  });
  await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
  const conn = new GrpcConnection({ url: `http://127.0.0.1:${(flood.address() as AddressInfo).port}` });
  t.teardown(() => {
    conn.close();
    flood.close();
  });
  const err = await t.throwsAsync(conn.unary('/etcdserverpb.KV/Range', frame(Buffer.alloc(0)), soon()), { instanceOf: GrpcError });
  t.is(err!.code, 14);
  t.regex(err!.message, /^14 UNAVAILABLE: connection to etcd lost: /);
  // The client's SETTINGS (right after the 24-octet preface) advertise the limit: id 6, SETTINGS_MAX_HEADER_LIST_SIZE.
  const settings = received.subarray(24 + 9, 24 + 9 + received.readUIntBE(24, 3));
  const advertised = new Map<number, number>();
  for (let i = 0; i + 6 <= settings.length; i += 6) advertised.set(settings.readUInt16BE(i), settings.readUInt32BE(i + 2));
  t.is(advertised.get(6), 1024 * 1024);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.true(received.includes(Buffer.of(0x00, 0x00, 0x08, 0x07)), 'a GOAWAY frame (length 8, type 7) was sent');
});
