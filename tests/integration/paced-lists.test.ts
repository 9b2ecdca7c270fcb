/**
 * Lists of 500 items or more are written piece by piece (chunked, no Content-Length) in JSON and YAML: the client gets
 * the same list as a one-piece answer would be, gzipped when it asks.
 */
import test from 'ava';
import YAML from 'yaml';
import { gunzipSync } from 'node:zlib';
import { createNamespace, names, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import { sendBinary } from '../helpers/binary-request.js';

const server = useTestServer({ widgetsCrd: true, storage: 'memory' });
const count = 600;
let ns = '';

test.serial.before(async () => {
  ns = await createNamespace(server, 'paced');
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
        const res = await server.request('POST', widgetsPath(ns), { body: widget(`w${String(i + j).padStart(3, '0')}`, { spec: { color: 'multi\nline', replicas: i + j } }) });
        if (res.status !== 201) throw new Error(res.text);
      }),
    );
  }
});

test('a 600-item JSON list arrives chunked and whole, items in order', async (t) => {
  const res = await sendBinary(server, 'GET', widgetsPath(ns));
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/json');
  t.is(res.headers['transfer-encoding'], 'chunked');
  t.is(res.headers['content-length'], undefined);
  const list = JSON.parse(res.bytes.toString('utf8'));
  t.like(list, { apiVersion: 'example.com/v1', kind: 'WidgetList' });
  t.truthy(list.metadata.resourceVersion);
  t.deepEqual(names(list), Array.from({ length: count }, (_, i) => `w${String(i).padStart(3, '0')}`));
  t.deepEqual(list.items[7].spec, { color: 'multi\nline', replicas: 7 });
});

test('the same list as YAML reads back to the same objects', async (t) => {
  const json = JSON.parse((await sendBinary(server, 'GET', widgetsPath(ns))).bytes.toString('utf8'));
  const res = await sendBinary(server, 'GET', widgetsPath(ns), { accept: 'application/yaml' });
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/yaml');
  t.is(res.headers['transfer-encoding'], 'chunked');
  t.deepEqual(YAML.parse(res.bytes.toString('utf8')), json);
});

test('a paced list is gzipped as it streams when the client accepts gzip', async (t) => {
  const res = await sendBinary(server, 'GET', widgetsPath(ns), { headers: { 'accept-encoding': 'gzip' } });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], 'gzip');
  t.regex(String(res.headers['vary']), /\bAccept-Encoding\b/i);
  t.is(JSON.parse(gunzipSync(res.bytes).toString('utf8')).items.length, count);
});

test('a page below the threshold keeps its Content-Length', async (t) => {
  const res = await sendBinary(server, 'GET', `${widgetsPath(ns)}?limit=10`);
  t.is(Number(res.headers['content-length']), res.bytes.length);
  t.is(JSON.parse(res.bytes.toString('utf8')).items.length, 10);
});
