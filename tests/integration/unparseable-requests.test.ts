/**
 * Requests the HTTP parser refuses are answered as kube-apiserver (Go's net/http) answers them — a plain-text 400 or
 * 431 and `Connection: close` — and the answer reaches the client even when it is still sending, also on a
 * kept-alive connection that served requests before.
 */
import test from 'ava';
import tls from 'node:tls';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

const goBadRequest = 'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request';
const goHeaderTooLarge =
  'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large';

async function connect(): Promise<tls.TLSSocket> {
  const { hostname, port } = new URL(server.url);
  const socket = tls.connect({ host: hostname, port: Number(port), ca: server.ca });
  await new Promise((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  return socket;
}

/** Everything the server sends until it closes the connection, and the error the connection ended with, if any. */
function readToClose(socket: tls.TLSSocket): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.once('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), ...(error ? { error } : {}) }));
  });
}

/** A request head for `target` (bytes as given, one Latin-1 char a byte) with a body of `bodyBytes` to follow. */
function head(target: string, bodyBytes = 0): Buffer {
  const { host } = new URL(server.url);
  const body = bodyBytes ? `Content-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n` : '';
  return Buffer.from(`POST ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${server.token}\r\n${body}\r\n`, 'latin1');
}

test('a request line the parser refuses is answered with Go\'s plain-text 400, and the connection closed', async (t) => {
  const socket = await connect();
  const received = readToClose(socket);
  socket.write(head('/api/v1/namespaces/caf\u00e9'));
  t.deepEqual(await received, { text: goBadRequest });
});

test('a refused request line right behind a request being answered, its body still being sent, gets the 400 after that answer', async (t) => {
  const socket = await connect();
  const received = readToClose(socket);
  socket.write(head('/version').toString('latin1').replace('POST', 'GET'));
  const bodyBytes = 4 * 1024 * 1024;
  socket.write(head('/api/v1/namespaces/caf\u00e9', bodyBytes));
  const chunk = Buffer.alloc(64 * 1024, 'x');
  for (let sent = 0; sent < bodyBytes && !socket.destroyed; sent += chunk.length) {
    if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
  }
  const { text, error } = await received;
  t.regex(text, /^HTTP\/1\.1 200 OK\r\n/, 'the first request is served');
  t.true(text.endsWith(goBadRequest), text.slice(-300));
  t.is(error, undefined);
});

test('a request header over kube\'s 1 MiB limit is answered with Go\'s plain-text 431', async (t) => {
  const socket = await connect();
  const received = readToClose(socket);
  socket.write(head(`/api/v1/namespaces/${'a'.repeat(1100 * 1024)}`));
  t.deepEqual(await received, { text: goHeaderTooLarge });
});
