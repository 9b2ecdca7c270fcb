/** APIResponseCompression: gzip for responses over 128 KiB when the client accepts it, never for watch streams. */
import test from 'ava';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { createNamespace, names, useTestServer, widget, widgetsPath, type TestServer } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as received, not decompressed. */
  raw: Buffer;
}

/** A GET that keeps the body as sent (the shared helper reads it as text, which would garble gzip). */
function rawGet(s: TestServer, path: string, headers: Record<string, string>): Promise<RawResponse> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, method: 'GET', ca: s.ca, agent: false, headers: { authorization: `Bearer ${s.token}`, ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
    });
    req.end();
  });
}

const bigCount = 150;
let bigNs = '';

/** A namespace with 150 widgets carrying a ~1 KiB annotation each: its list is well over 128 KiB. */
test.serial.before(async () => {
  bigNs = await createNamespace(server, 'gzip');
  const filler = 'x'.repeat(1024);
  const created = Array.from({ length: bigCount }, (_, i) => {
    const body = widget(`w${String(i).padStart(3, '0')}`);
    return { ...body, metadata: { ...body.metadata, annotations: { 'example.com/filler': filler } } };
  });
  for (let i = 0; i < created.length; i += 25) {
    await Promise.all(
      created.slice(i, i + 25).map(async (w) => {
        const res = await server.request('POST', widgetsPath(bigNs), { body: w });
        if (res.status !== 201) throw new Error(`creating ${w.metadata.name}: ${res.status} ${res.text}`);
      }),
    );
  }
});

test('a list over 128 KiB is gzipped when the client accepts gzip', async (t) => {
  const plain = await rawGet(server, widgetsPath(bigNs), {});
  t.true(plain.raw.length > 128 * 1024, `the uncompressed list is ${plain.raw.length} bytes`);

  const res = await rawGet(server, widgetsPath(bigNs), { 'accept-encoding': 'gzip' });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], 'gzip');
  t.regex(String(res.headers['vary']), /\bAccept-Encoding\b/i);
  t.is(res.headers['content-type'], 'application/json');
  t.is(Number(res.headers['content-length']), res.raw.length, 'Content-Length is the compressed size');
  t.true(res.raw.length < plain.raw.length / 4, `compressed to ${res.raw.length} bytes`);

  const list = JSON.parse(gunzipSync(res.raw).toString('utf8'));
  const uncompressed = JSON.parse(plain.raw.toString('utf8'));
  t.is(list.kind, 'WidgetList');
  t.is(list.items.length, bigCount);
  t.deepEqual(names(list), names(uncompressed));
  t.deepEqual(list.items, uncompressed.items);
});

test('the same list without Accept-Encoding is sent uncompressed with its exact Content-Length', async (t) => {
  const res = await rawGet(server, widgetsPath(bigNs), {});
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], undefined);
  t.is(Number(res.headers['content-length']), res.raw.length);
  t.is(JSON.parse(res.raw.toString('utf8')).items.length, bigCount);
});

test('gzip listed among other codings (and with a q-value) is accepted; gzip;q=0 is not', async (t) => {
  const listed = await rawGet(server, widgetsPath(bigNs), { 'accept-encoding': 'br, gzip, deflate' });
  t.is(listed.headers['content-encoding'], 'gzip');
  t.is(JSON.parse(gunzipSync(listed.raw).toString('utf8')).items.length, bigCount);

  const weighted = await rawGet(server, widgetsPath(bigNs), { 'accept-encoding': 'gzip;q=0.5' });
  t.is(weighted.headers['content-encoding'], 'gzip');

  const refused = await rawGet(server, widgetsPath(bigNs), { 'accept-encoding': 'gzip;q=0, identity' });
  t.is(refused.headers['content-encoding'], undefined);
});

test('Accept-Encoding: deflate alone gets an uncompressed response', async (t) => {
  const res = await rawGet(server, widgetsPath(bigNs), { 'accept-encoding': 'deflate' });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], undefined);
  t.is(JSON.parse(res.raw.toString('utf8')).items.length, bigCount);
});

test('a small GET is not compressed even when gzip is accepted', async (t) => {
  const res = await rawGet(server, widgetsPath(bigNs, 'w000'), { 'accept-encoding': 'gzip' });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], undefined);
  t.is(Number(res.headers['content-length']), res.raw.length);
  t.is(JSON.parse(res.raw.toString('utf8')).metadata.name, 'w000');
});

test('a small error Status is not compressed either', async (t) => {
  const res = await rawGet(server, widgetsPath(bigNs, 'missing'), { 'accept-encoding': 'gzip' });
  t.is(res.status, 404);
  t.is(res.headers['content-encoding'], undefined);
  t.is(Number(res.headers['content-length']), res.raw.length);
  t.like(JSON.parse(res.raw.toString('utf8')), { kind: 'Status', reason: 'NotFound' });
});

test('a Table of the large list is compressed by the same rule', async (t) => {
  const res = await rawGet(server, `${widgetsPath(bigNs)}?includeObject=Object`, {
    accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    'accept-encoding': 'gzip',
  });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], 'gzip');
  const table = JSON.parse(gunzipSync(res.raw).toString('utf8'));
  t.is(table.kind, 'Table');
  t.is(table.rows.length, bigCount);
});

test('a watch is never compressed, even when its initial events exceed 128 KiB', async (t) => {
  const watch = await server.watch(`${widgetsPath(bigNs)}?watch=1`, { headers: { 'accept-encoding': 'gzip' } });
  try {
    t.is(watch.status, 200);
    t.is(watch.headers['content-encoding'], undefined);
    for (let i = 0; i < bigCount; i++) t.is((await watch.next()).type, 'ADDED');
  } finally {
    watch.close();
  }
});
