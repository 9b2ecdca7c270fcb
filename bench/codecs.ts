/**
 * Wire formats: a large list and a 1,000-watch fan-out encoded as JSON, Kubernetes protobuf and CBOR, in the same run.
 *
 * One data dir, set up in a throw-away kapi process: the widgets CRD carrying its protobuf field numbers (so kapi serves
 * widgets as protobuf, bench/codec-objects.ts), 5,000 widgets in namespace `bulk` and widget w1 in `default`.
 *   - list: one fresh kapi process; over one keep-alive connection, `GET …/namespaces/bulk/widgets` with each format's
 *     Accept, timed from request to last byte, formats interleaved run by run after warm-up runs; median per format,
 *     with the server's CPU per list and the bytes of the answer. lists/s = 1000 ÷ median ms.
 *   - fan-out: per format a fresh kapi process with 1,000 watches of the widgets in `default` (each over its own TLS
 *     connection, in a child process that counts events by their framing, bench/codec-watch-clients.ts); w1 is
 *     merge-patched as fast as 8 writes in flight allow for the measured window (after a warm-up), then the watches
 *     drain. events/s = events delivered ÷ (last event − first write); bytes/event from the bytes received.
 * Every answer is decoded afterwards with kapi's own codecs and its item count checked.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { expectStatus, httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { withServer, type ServerProcess } from './server-process.js';
import { startHelperChild, type HelperChild } from './helper-child.js';
import type { CodecWatchClientsCall, CodecWatchClientsSettings, Received } from './codec-watch-clients.js';
import { benchFormats, countItems, installCodecWidgets, type BenchFormat } from './codec-objects.js';
import { widgetPath } from './widgets.js';
import { median } from './median.js';

export interface CodecListFigures {
  format: string;
  contentType: string;
  /** Bytes of one list answer. */
  bytes: number;
  /** The very first list in this format (cold JIT, no item encodings kept yet), ms: informational. */
  firstMs: number;
  medianMs: number;
  listsPerSec: number;
  serverCpuMedianMs: number;
  problems: string[];
}

export interface CodecFanoutFigures {
  format: string;
  contentType: string;
  watchers: number;
  writes: number;
  expected: number;
  delivered: number;
  eventsPerSec: number;
  bytesPerEvent: number;
  serverMicrosPerEvent: number;
  problems: string[];
}

export interface CodecResults {
  objects: number;
  list: CodecListFigures[];
  fanout: CodecFanoutFigures[];
  profiles: Record<string, number>;
}

const bulkPath = '/apis/example.com/v1/namespaces/bulk/widgets';
const watchPath = '/apis/example.com/v1/namespaces/default/widgets';
const listObjects = 5_000;
const maxWritesInFlight = 8;
const drainStallMs = 5_000;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runCodecs(ctx: BenchContext): Promise<CodecResults> {
  const { cfg, log } = ctx;
  const kapi: KapiServerSettings = { dataDir: join(ctx.root, 'data-codecs'), pkiDir: ctx.pkiDir, token: ctx.token };
  await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
  const client = (url: string, sockets?: number) => httpsClient(url, ctx.caCertPem, ctx.token, sockets);
  const profiles: Record<string, number> = {};

  log(`codecs: set-up of ${listObjects} widgets (protobuf field numbers on the CRD) in ${kapi.dataDir}`);
  await withServer('./kapi-server.js', kapi, async (url) => installCodecWidgets(client(url), listObjects));

  log(`codecs: lists of ${listObjects} widgets as ${benchFormats.map((f) => f.name).join(', ')}`);
  const list = await withServer('./kapi-server.js', kapi, async (url, server) => {
    const c = client(url, 1);
    try {
      return await measureLists(c, server, cfg.list.warmupRuns, cfg.list.runs, ctx, profiles);
    } finally {
      c.close();
    }
  });

  const fanout: CodecFanoutFigures[] = [];
  for (const format of benchFormats) {
    log(`codecs: fan-out to ${cfg.fanout.watchers} watches as ${format.name}, ${cfg.warmupSeconds} s warm-up + ${cfg.fanout.seconds} s of writes`);
    fanout.push(await withServer('./kapi-server.js', kapi, (url, server) => measureFanout(ctx, url, server, format, profiles)));
  }
  return { objects: listObjects, list, fanout, profiles };
}

async function measureLists(c: HttpsClient, server: ServerProcess, warmupRuns: number, runs: number, ctx: BenchContext, profiles: Record<string, number>): Promise<CodecListFigures[]> {
  const one = async (format: BenchFormat) => {
    const cpu0 = await server.cpuMicros();
    const t0 = performance.now();
    const res = await c.getAs(bulkPath, format.accept);
    const ms = performance.now() - t0;
    return { ms, cpuMs: ((await server.cpuMicros()) - cpu0) / 1000, res };
  };
  const firstMs = new Map<string, number>();
  for (const f of benchFormats) firstMs.set(f.name, (await one(f)).ms);
  for (let i = 0; i < warmupRuns; i++) for (const f of benchFormats) await one(f);
  const profilePath = ctx.profilePath('kapi-codecs-list');
  if (profilePath) await server.startProfile();
  const samples = new Map<string, { ms: number[]; cpuMs: number[]; last?: Awaited<ReturnType<typeof one>>['res'] }>();
  for (const f of benchFormats) samples.set(f.name, { ms: [], cpuMs: [] });
  for (let i = 0; i < runs; i++) {
    for (const f of benchFormats) {
      const s = samples.get(f.name)!;
      const r = await one(f);
      s.ms.push(r.ms);
      s.cpuMs.push(r.cpuMs);
      s.last = r.res;
    }
  }
  if (profilePath) {
    await server.stopProfile(profilePath);
    profiles['kapi-codecs-list'] = runs * benchFormats.length;
  }
  return benchFormats.map((f) => {
    const s = samples.get(f.name)!;
    const res = s.last!;
    const problems: string[] = [];
    if (res.status !== 200) problems.push(`HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
    else {
      const items = countItems(f, res.body);
      if (items !== listObjects) problems.push(`${items} items instead of ${listObjects}`);
    }
    const contentType = String(res.headers['content-type'] ?? '');
    if (!contentType.startsWith(f.accept)) problems.push(`answered ${contentType}`);
    const medianMs = median(s.ms);
    return { format: f.name, contentType, bytes: res.body.length, firstMs: firstMs.get(f.name)!, medianMs, listsPerSec: 1000 / medianMs, serverCpuMedianMs: median(s.cpuMs), problems };
  });
}

async function measureFanout(ctx: BenchContext, url: string, server: ServerProcess, format: BenchFormat, profiles: Record<string, number>): Promise<CodecFanoutFigures> {
  const { cfg } = ctx;
  const c = httpsClient(url, ctx.caCertPem, ctx.token);
  const writer = httpsClient(url, ctx.caCertPem, ctx.token, maxWritesInFlight);
  const settings: CodecWatchClientsSettings = { url, caCertPem: ctx.caCertPem, token: ctx.token };
  const clients = await startHelperChild<CodecWatchClientsCall>('./codec-watch-clients.js', settings, { method: 'close' });
  try {
    const listed = await c.request('GET', watchPath);
    expectStatus(listed, [200], 'list widgets in default');
    const rv = (JSON.parse(listed.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const watchers = cfg.fanout.watchers;
    const failures = (await clients.call({
      method: 'open',
      path: `${watchPath}?watch=1&resourceVersion=${rv}`,
      accept: format.accept,
      format: format.stream,
      count: watchers,
      concurrency: 50,
    })) as string[];
    if (failures.length) throw new Error(`codecs fan-out (${format.name}): ${failures.length} watches could not be opened: ${failures.slice(0, 3).join('; ')}`);

    let seq = 0;
    const warm = await writeFlat(writer, cfg.warmupSeconds, () => ++seq);
    await drain(clients, watchers * warm.ok);
    const profilePath = ctx.profilePath(`kapi-codecs-fanout-${format.name}`);
    if (profilePath) await server.startProfile();
    const before = (await clients.call({ method: 'received' })) as Received;
    const cpu0 = await server.cpuMicros();
    const start = nowMs();
    const measured = await writeFlat(writer, cfg.fanout.seconds, () => ++seq);
    const after = await drain(clients, watchers * (warm.ok + measured.ok));
    const cpuMicros = (await server.cpuMicros()) - cpu0;
    if (profilePath) await server.stopProfile(profilePath);
    const delivered = after.events - before.events;
    if (profilePath) profiles[`kapi-codecs-fanout-${format.name}`] = delivered;
    const expected = watchers * measured.ok;
    const problems = [
      ...(measured.failed ? [`${measured.failed} writes failed (${measured.firstError})`] : []),
      ...(delivered !== expected ? [`${delivered} of ${expected} events delivered`] : []),
      ...(after.ended ? [`${after.ended} watches ended early`] : []),
      ...(after.contentType.startsWith(format.streamContentType) ? [] : [`answered ${after.contentType}`]),
    ];
    return {
      format: format.name,
      contentType: after.contentType,
      watchers,
      writes: measured.ok,
      expected,
      delivered,
      eventsPerSec: delivered / ((after.lastEventMs - start) / 1000),
      bytesPerEvent: delivered ? (after.bytes - before.bytes) / delivered : NaN,
      serverMicrosPerEvent: delivered ? cpuMicros / delivered : NaN,
      problems,
    };
  } finally {
    c.close();
    writer.close();
    await clients.close();
  }
}

/** Merge-patches w1 from `maxWritesInFlight` lanes, each sending its next patch when the last is answered, for `seconds`. */
async function writeFlat(writer: HttpsClient, seconds: number, nextSeq: () => number): Promise<{ ok: number; failed: number; firstError: string }> {
  const end = nowMs() + seconds * 1000;
  const out = { ok: 0, failed: 0, firstError: '' };
  const lane = async () => {
    while (nowMs() < end) {
      const res = await writer.send('PATCH', widgetPath, 'application/merge-patch+json', JSON.stringify({ spec: { replicas: nextSeq() } }));
      if (res.status === 200) out.ok++;
      else {
        out.failed++;
        out.firstError ||= `HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: maxWritesInFlight }, lane));
  return out;
}

/** Waits until the clients hold `expected` events in all, or no event arrived for a while. */
async function drain(clients: Clients, expected: number): Promise<Received> {
  let last = (await clients.call({ method: 'received' })) as Received;
  let lastChange = nowMs();
  for (;;) {
    if (last.events >= expected || nowMs() - lastChange > drainStallMs) return last;
    await sleep(20);
    const now = (await clients.call({ method: 'received' })) as Received;
    if (now.events !== last.events) lastChange = nowMs();
    last = now;
  }
}

type Clients = HelperChild<CodecWatchClientsCall>;

