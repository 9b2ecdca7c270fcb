/** The headers kube-apiserver sends on every response: Audit-Id, Cache-Control, JSON without a charset, keep-alive. */
import test from 'ava';
import { connect } from 'node:tls';
import { createNamespace, useTestServer, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test('every answer carries a fresh Audit-Id and Cache-Control: no-cache, private — errors, 401s and 403s too', async (t) => {
  const ns = await createNamespace(server, 'hdr');
  const answers = [
    await server.request('GET', widgetsPath(ns)),
    await server.request('GET', widgetsPath(ns, 'missing')),
    await server.request('GET', '/version'),
    await server.request('GET', '/healthz'),
    await server.request('GET', '/api/v1/namespaces', { token: 'not-a-known-token' }),
    await server.request('GET', '/api/v1/namespaces', { token: null }),
    await server.request('POST', widgetsPath(ns), { rawBody: '{', contentType: 'application/json' }),
  ];
  t.deepEqual(answers.map((a) => a.status), [200, 404, 200, 200, 401, 403, 400]);
  const ids = answers.map((a) => a.headers['audit-id']);
  for (const [i, a] of answers.entries()) {
    t.regex(String(a.headers['audit-id']), uuid, `answer ${i}`);
    t.is(a.headers['cache-control'], 'no-cache, private', `answer ${i}`);
  }
  t.is(new Set(ids).size, ids.length, 'one id per request');
});

test("a request's own Audit-ID is echoed back", async (t) => {
  const res = await server.request('GET', '/api/v1/namespaces/default', { headers: { 'Audit-ID': 'trace-1234' } });
  t.is(res.headers['audit-id'], 'trace-1234');
});

test('JSON answers are application/json without a charset, as kube sends them', async (t) => {
  for (const path of ['/version', '/apis', '/api', '/api/v1', '/apis/example.com/v1', '/api/v1/namespaces/default', '/api/v1/namespaces/missing']) {
    const res = await server.request('GET', path);
    t.is(res.headers['content-type'], 'application/json', path);
  }
});

test('HTTP/1.1 connections are kept alive for 90 s, as kube-apiserver keeps them', async (t) => {
  const url = new URL(server.url);
  const socket = connect({ host: url.hostname, port: Number(url.port), ca: server.ca });
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  socket.write(`GET /version HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
  const head = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
  t.regex(head, /\r\nKeep-Alive: timeout=90\r\n/i);
  // The idle connection is still open after kapi's former 5 s timeout.
  let closed = false;
  socket.once('close', () => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 6000));
  t.false(closed);
  socket.destroy();
});
