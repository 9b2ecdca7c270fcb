// `kapi serve` on SIGTERM under write load: kube-apiserver's graceful termination. /readyz fails while writes are
// still served for --shutdown-delay-duration, then new requests are refused as kube refuses them, the watch ends
// cleanly, the process exits 0, and every write it acknowledged is there after a restart on the same data directory.
import test from 'ava';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { removeDir, startKapi, tempDir, type KapiProcess } from '../helpers/kapi-process.js';
import { openRawWatch, type RawWatchTarget } from '../helpers/https-watch.js';

const delayMs = 3_000;
const writers = 8;
const configMaps = '/api/v1/namespaces/default/configmaps';
const retryAfterText = 'The apiserver is shutting down, please try again later.\n';

const dataDir = tempDir('kapi-e2e-shutdown-');
let kapi: KapiProcess | undefined;

test.after.always(async () => {
  await kapi?.stop();
  removeDir(dataDir);
});

interface Answer {
  at: number;
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  text?: string;
  /** The connection's error code when there was no answer. */
  error?: string;
}

function target(k: KapiProcess): RawWatchTarget {
  return {
    port: Number(new URL(k.url).port),
    ca: readFileSync(join(k.dataDir, 'pki', 'ca.crt'), 'utf8'),
    token: readFileSync(join(k.dataDir, 'admin-token'), 'utf8').trim(),
  };
}

/** One request on its own connection; a connection error is an answer too. */
function send(to: RawWatchTarget, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve) => {
    const req = https.request(
      { host: '127.0.0.1', port: to.port, method, path, ca: to.ca, agent: false, headers: { authorization: `Bearer ${to.token}`, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ at: Date.now(), status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ at: Date.now(), error: err.code ?? err.message }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ at: Date.now(), error: err.code ?? err.message }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test.serial('SIGTERM under write load: readyz fails first, writes are served through the delay, then refused as kube does; the watch ends cleanly, kapi exits 0 and no acknowledged write is lost', async (t) => {
  t.timeout(120_000);
  kapi = await startKapi({ dataDir, args: ['--shutdown-delay-duration', `${delayMs / 1000}s`, '--shutdown-send-retry-after'] });
  const to = target(kapi);
  const watch = await openRawWatch(to, `${configMaps}?watch=1`);
  let watchEndedAt = 0;
  void watch.ended.then(() => (watchEndedAt = Date.now()));

  const acknowledged = new Map<string, number>();
  const refusals: Answer[] = [];
  let next = 0;
  const write = async () => {
    for (;;) {
      const name = `cm-${next++}`;
      const answer = await send(to, 'POST', configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { n: name } });
      if (answer.status === 201) {
        acknowledged.set(name, answer.at);
        continue;
      }
      refusals.push(answer);
      if (answer.error === 'ECONNREFUSED') return;
      await sleep(50);
    }
  };
  const load = Array.from({ length: writers }, write);
  while (acknowledged.size < 100) await sleep(20);

  const signalledAt = Date.now();
  const stopped = kapi.stop('SIGTERM');
  let notReadyAt = 0;
  while (!notReadyAt && Date.now() - signalledAt < delayMs) {
    const readyz = await send(to, 'GET', '/readyz?verbose');
    if (readyz.status === 500) {
      notReadyAt = readyz.at;
      t.regex(readyz.text!, /\[-\]shutdown failed: reason withheld\nreadyz check failed\n$/);
    }
  }
  t.true(notReadyAt > 0, `/readyz failed within the delay\n${kapi.output()}`);
  await Promise.all(load);
  const exit = await stopped;
  const exitedAt = Date.now();

  t.deepEqual(exit, { code: 0, signal: null }, `kapi serve exits 0 by itself\n${kapi.output()}`);
  t.true(exitedAt - signalledAt < 15_000, `exited ${exitedAt - signalledAt} ms after SIGTERM`);
  t.true([...acknowledged.values()].some((at) => at > notReadyAt), 'writes are still acknowledged once /readyz fails');
  t.true(refusals.length > 0);
  for (const r of refusals) {
    t.true(r.at >= signalledAt + delayMs, `refused ${r.at - signalledAt} ms after SIGTERM, within the delay: ${JSON.stringify(r)}`);
    if (r.error !== undefined) {
      // Once drained the listener is closed; a connection it had just accepted is closed unanswered.
      t.true(['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(r.error), `a refused or closed connection: ${r.error}`);
    } else {
      t.is(r.status, 429, r.text);
      t.is(r.text, retryAfterText);
      t.is(r.headers!['retry-after'], '5');
      t.is(r.headers!['connection'], 'close');
    }
  }
  t.is(await watch.outcome, 'end', 'the watch ends with the proper end of its stream');
  t.true(watchEndedAt >= signalledAt + delayMs, `the watch is served through the delay (ended ${watchEndedAt - signalledAt} ms after SIGTERM)`);
  t.true(watch.events.length > 0 && watch.events.every((e) => e.type === 'ADDED'), 'whole events only');

  kapi = await startKapi({ dataDir });
  const list = await send(target(kapi), 'GET', configMaps);
  t.is(list.status, 200, list.text);
  const stored = new Set((JSON.parse(list.text!).items as { metadata: { name: string } }[]).map((cm) => cm.metadata.name));
  const lost = [...acknowledged.keys()].filter((name) => !stored.has(name));
  t.deepEqual(lost, [], `${acknowledged.size} writes acknowledged, ${lost.length} lost`);
  t.log(`${acknowledged.size} writes acknowledged, ${refusals.length} refused (${refusals.filter((r) => r.status === 429).length} with 429)`);
});

test.serial('a second signal during the shutdown exits at once, with code 1', async (t) => {
  const second = await startKapi({ args: ['--shutdown-delay-duration', '60s'] });
  try {
    const to = target(second);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => second.child.once('exit', (code, signal) => resolve({ code, signal })));
    second.child.kill('SIGTERM');
    const started = Date.now();
    let readyz = await send(to, 'GET', '/readyz');
    while (readyz.status !== 500 && Date.now() - started < 10_000) {
      await sleep(50);
      readyz = await send(to, 'GET', '/readyz');
    }
    t.is(readyz.status, 500, 'the shutdown has begun');
    const signalledAt = Date.now();
    second.child.kill('SIGINT');
    t.deepEqual(await exited, { code: 1, signal: null }, second.output());
    t.true(Date.now() - signalledAt < 5_000, 'without waiting for the delay');
  } finally {
    await second.stop();
  }
});
