/**
 * kube-apiserver's connection limits, on TLS: a connection must finish its handshake and send a complete request header
 * within the header timeout (kube: 32 s), a kept-alive connection may idle between requests for the idle timeout
 * (kube: 90 s); a watch, quiet for longer than both, is never cut. Short timeouts here.
 */
import test from 'ava';
import net from 'node:net';
import tls from 'node:tls';
import { createNamespace, createWidget, useTestServer, widgetsPath } from '../helpers/test-server.js';

const headerTimeoutMs = 1_000;
const idleTimeoutMs = 2_000;
const server = useTestServer({
  widgetsCrd: true,
  config: { requestHeaderTimeoutMs: headerTimeoutMs, idleConnectionTimeoutMs: idleTimeoutMs },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function target() {
  const url = new URL(server.url);
  return { host: url.hostname, port: Number(url.port) };
}

/** Ms from now until `socket` is closed (its input is read and dropped); rejects after `limitMs`. */
function closedAfter(socket: net.Socket, limitMs: number): Promise<number> {
  const started = Date.now();
  socket.on('error', () => {
    // a reset counts as closed
  });
  socket.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${limitMs} ms`));
    }, limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

/** A TLS connection whose handshake completed. */
async function tlsConnection(): Promise<tls.TLSSocket> {
  const socket = tls.connect({ ...target(), ca: server.ca });
  await new Promise((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  return socket;
}

test('a connection that sends nothing (no TLS handshake) is closed after the header timeout', async (t) => {
  const socket = net.connect(target());
  await new Promise((resolve) => socket.once('connect', resolve));
  const ms = await closedAfter(socket, headerTimeoutMs + 3_000);
  t.true(ms >= headerTimeoutMs - 100, `closed after ${ms} ms`);
});

test('a connection that stops in the middle of its TLS handshake is closed after the header timeout', async (t) => {
  const socket = net.connect(target());
  await new Promise((resolve) => socket.once('connect', resolve));
  // The first bytes of a TLS record header (a handshake record, TLS 1.0 record version), and no more.
  socket.write(Buffer.from([0x16, 0x03, 0x01]));
  const ms = await closedAfter(socket, headerTimeoutMs + 3_000);
  t.true(ms >= headerTimeoutMs - 100, `closed after ${ms} ms`);
});

test('a TLS connection that completes the handshake and sends nothing is closed after the header timeout', async (t) => {
  const socket = await tlsConnection();
  const ms = await closedAfter(socket, headerTimeoutMs + 3_000);
  t.true(ms >= headerTimeoutMs - 100, `closed after ${ms} ms`);
});

test('a TLS connection that sends half a request header is closed after the header timeout', async (t) => {
  const socket = await tlsConnection();
  socket.write(`GET /version HTTP/1.1\r\nHost: ${server.url.slice('https://'.length)}\r\n`);
  const ms = await closedAfter(socket, headerTimeoutMs + 3_000);
  t.true(ms >= headerTimeoutMs - 100, `closed after ${ms} ms`);
});

test('a kept-alive connection is closed after the idle timeout, not after the header timeout', async (t) => {
  const socket = await tlsConnection();
  socket.write(`GET /version HTTP/1.1\r\nHost: ${server.url.slice('https://'.length)}\r\n\r\n`);
  const head = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
  t.regex(head, /^HTTP\/1\.1 200 /);
  t.regex(head, new RegExp(`\r\nKeep-Alive: timeout=${idleTimeoutMs / 1000}\r\n`, 'i'));
  const ms = await closedAfter(socket, idleTimeoutMs + 3_000);
  t.true(ms >= idleTimeoutMs - 100, `closed after ${ms} ms`);
});

test('a watch with no events stays open past both timeouts and still delivers events', async (t) => {
  const ns = await createNamespace(server, 'quiet');
  const watch = await server.watch(`${widgetsPath(ns)}?watch=1`);
  t.is(watch.status, 200);
  let ended = false;
  void watch.ended.then(() => (ended = true));
  await sleep(idleTimeoutMs + headerTimeoutMs + 1_000);
  t.false(ended, 'the quiet watch is still open');
  await createWidget(server, ns, 'late');
  const event = await watch.next(5_000);
  t.is(event.type, 'ADDED');
  t.is(event.object.metadata.name, 'late');
  watch.close();
});
