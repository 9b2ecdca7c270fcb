// Large writes do not grow kapi's memory without bound: the watch cache's history is bounded in bytes
// (--watch-cache-history-size) as well as by count and age; what it dropped, a watch gets 410 for.
import test from 'ava';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setUpWidgets, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ args: ['--watch-cache-history-size', '16Mi'] });

test.before(async () => {
  await setUpWidgets(kapi);
});

function send(method: string, path: string, body?: string, contentType = 'application/json'): Promise<{ status: number; text: string }> {
  const { port } = new URL(kapi.url);
  const token = readFileSync(join(kapi.dataDir, 'admin-token'), 'utf8').trim();
  const ca = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'));
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path, method, ca, agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The server process's resident memory, in MiB. */
function rssMiB(): number {
  const status = readFileSync(`/proc/${kapi.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

test('80 merge patches of a 2.9 MiB string keep RSS bounded; a watch from before them is 410 Gone', async (t) => {
  const path = '/apis/example.com/v1/namespaces/demo/widgets';
  const created = await send('POST', path, JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'big' }, spec: { color: 'x' } }));
  t.is(created.status, 201, created.text);
  const firstRv: string = JSON.parse(created.text).metadata.resourceVersion;
  const patch = async (i: number) => {
    const color = String.fromCharCode(97 + (i % 26)).repeat(2.9 * 1024 * 1024);
    const res = await send('PATCH', `${path}/big`, JSON.stringify({ spec: { color } }), 'application/merge-patch+json');
    if (res.status !== 200) throw new Error(`patch ${i}: ${res.status} ${res.text.slice(0, 300)}`);
  };
  for (let i = 0; i < 20; i++) await patch(i);
  const settled = rssMiB();
  for (let i = 20; i < 80; i++) await patch(i);
  const after = rssMiB();
  // Unbounded, the history kept ~4 MiB per write: 60 more writes would add ~240 MiB.
  t.true(after - settled < 120, `RSS went from ${settled.toFixed(0)} MiB after 20 writes to ${after.toFixed(0)} MiB after 80`);
  t.log(`RSS ${settled.toFixed(0)} MiB after 20 writes, ${after.toFixed(0)} MiB after 80`);

  const watch = await send('GET', `${path}?watch=true&resourceVersion=${firstRv}&timeoutSeconds=1`);
  t.is(watch.status, 200, watch.text.slice(0, 300));
  t.regex(watch.text, /"type":"ERROR".*"code":410/);
});
