/**
 * Watch fan-out: how long after a write is acknowledged do its watchers see it, with many watches open?
 *
 * A fresh kapi process (SQLite storage, a fresh data dir set up in a throw-away process with the widgets CRD and
 * widget w1) gets N watches of the widgets in `default` from the resourceVersion of a list, each over its own TLS
 * connection (HTTP/1.1), or, in a second measurement, as streams spread over a few HTTP/2 connections: client-go
 * multiplexes a process's watches over one connection, so a fan-out to controllers looks like that. Then w1 is merge-patched (spec.replicas = a sequence number, so every patch changes it) at a steady rate
 * paced by a timer (see writeAtRate): an unmeasured warm-up, then the measured window. For every patch the time
 * its response arrived (the write acknowledgement) is recorded, and for every watcher the time the MODIFIED event with
 * that resourceVersion arrived; delivery latency = event received − write acknowledged, over all watcher × write pairs.
 * The baseline is the same measurement with one watcher.
 *
 * Three processes, on purpose. The server is a child of its own as everywhere in the bench. The watch clients are a
 * second child: with 1,000 watches at 200 writes/s they read 200,000 events/s, close to a core's worth of TLS and
 * parsing, and in the writer's process that work would delay the writer's timer and its acknowledgement timestamps
 * (an acknowledgement noted late makes every latency look shorter, and the write rate drop). So the writer (this
 * process) only paces and timestamps writes, and both sides stamp with process.hrtime (CLOCK_MONOTONIC, shared by
 * all processes). On 2 cores the server and the watch clients each get about one; the clients' CPU share is reported
 * so a saturated client (whose late reads would count as server latency) shows.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { machineCpuMs } from './environment.js';
import { expectStatus, httpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { withServer, type ServerProcess } from './server-process.js';
import { startHelperChild, type HelperChild } from './helper-child.js';
import type { DeliveryStats, LoopDelay, OpenResult, WatchClientsCall, WatchClientsSettings } from './watch-clients.js';
import { createWidgetW1, installWidgetsCrd, waitForWidgetsServed, widgetPath, widgetsCollectionPath } from './widgets.js';

export interface FanoutFigures {
  title: string;
  watchers: number;
  /** HTTP/2 connections the watches are streams of; 0: one HTTP/1.1 connection per watch. */
  http2Connections: number;
  /** The pace the writer aimed at. */
  targetUpdatesPerSec: number;
  /** Measured window: first write sent → last write acknowledged, seconds. */
  durationSeconds: number;
  /** Writes acknowledged with 200 in the measured window. */
  updates: number;
  updatesPerSec: number;
  /** Writes answered with another status (or failed) in the measured window. */
  failedUpdates: number;
  /** Those failures by status (0: no response), with the first answer of each. */
  failedStatuses: Record<string, { count: number; first: string }>;
  /** Write sent → acknowledged. */
  writeLatencyMs: { p50: number; p99: number; max: number };
  /** Delivered MODIFIED events ÷ (last delivery − first write sent). */
  eventsPerSec: number;
  /** Last write acknowledged → last event delivered, ms: how far the watchers trailed the writer at the end. */
  tailMs: number;
  /** How long opening the watches took, ms. */
  openMs: number;
  delivery: DeliveryStats;
  /** Server CPU time over the measured window ÷ events delivered, µs. */
  serverMicrosPerEvent: number;
  /**
   * The watch clients' event-loop delay over the measured window: how late they could have been to read an event
   * that had arrived, i.e. the part of the latency that may be theirs and not the server's.
   */
  watchClientsLoopDelayMs: LoopDelay;
  /** Shares of one core over the measured window (first write → all events delivered or given up on). */
  cpu: { server: number; watchClients: number; writer: number; other: number };
}

export interface WatchFanoutResults {
  baseline: FanoutFigures;
  /** One HTTP/1.1 connection per watch. */
  fanout: FanoutFigures;
  /** The same watches as streams of `http2Connections` HTTP/2 connections. */
  fanoutHttp2: FanoutFigures;
  /** Names of the server CPU profiles taken (BENCH_PROFILE=1) → operations (events delivered) in their window. */
  profiles: Record<string, number>;
}

/** A write not delivered to a watcher within this long after the last write was acknowledged counts as lost. */
const drainLimitMs = 30_000;
/** …or once no event at all has arrived for this long. */
const drainStallMs = 5_000;
const openConcurrency = 50;
/**
 * Writes may overlap (like many clients of one server): the pace is kept when a write takes longer than the 5 ms
 * between writes, and concurrent unconditional merge patches of one object are retried by the server, not refused.
 */
const maxWritesInFlight = 8;

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runWatchFanout(ctx: BenchContext): Promise<WatchFanoutResults> {
  const profiles: Record<string, number> = {};
  const { watchers, http2Connections } = ctx.cfg.fanout;
  const baseline = await measureFanout(ctx, 1, 0, 'watch-fanout-1', profiles);
  const fanout = await measureFanout(ctx, watchers, 0, `watch-fanout-${watchers}`, profiles);
  const fanoutHttp2 = await measureFanout(ctx, watchers, http2Connections, `watch-fanout-${watchers}-http2`, profiles);
  return { baseline, fanout, fanoutHttp2, profiles };
}

async function measureFanout(
  ctx: BenchContext,
  watchers: number,
  http2Connections: number,
  name: string,
  profiles: Record<string, number>,
): Promise<FanoutFigures> {
  const { cfg, log } = ctx;
  const kapi: KapiServerSettings = { dataDir: join(ctx.root, `data-${name}`), pkiDir: ctx.pkiDir, token: ctx.token };
  await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
  const client = (url: string) => httpsClient(url, ctx.caCertPem, ctx.token);
  log(`set-up: CRD widgets.example.com and widget w1 in ${kapi.dataDir}`);
  await withServer('./kapi-server.js', kapi, async (url) => {
    const c = client(url);
    await installWidgetsCrd(c);
    await waitForWidgetsServed(c);
    await createWidgetW1(c);
  });

  const rate = cfg.fanout.updatesPerSecond;
  const over = http2Connections ? ` over ${http2Connections} HTTP/2 connections` : '';
  log(`watch fan-out: ${watchers} watch${watchers === 1 ? '' : 'es'}${over}, w1 patched at ${rate}/s for ${cfg.warmupSeconds} s warm-up + ${cfg.fanout.seconds} s`);
  return withServer('./kapi-server.js', kapi, async (url, server) => {
    const c = client(url);
    await waitForWidgetsServed(c);
    const list = await c.request('GET', widgetsCollectionPath);
    expectStatus(list, [200], 'list widgets');
    const listRv = (JSON.parse(list.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

    const settings: WatchClientsSettings = { url, caCertPem: ctx.caCertPem, token: ctx.token, ...(http2Connections ? { http2Connections } : {}) };
    const clients = await startHelperChild<WatchClientsCall>('./watch-clients.js', settings, { method: 'close' });
    const writer = patcher(url, ctx.caCertPem, ctx.token);
    try {
      const path = `${widgetsCollectionPath}?watch=1&resourceVersion=${encodeURIComponent(listRv)}`;
      const open = (await clients.call({ method: 'open', path, count: watchers, concurrency: openConcurrency })) as OpenResult;
      if (open.failed) throw new Error(`watch fan-out: ${open.failed} of ${watchers} watches could not be opened: ${open.failures.join('; ')}`);
      log(`  ${watchers} watches open in ${(open.ms / 1000).toFixed(1)} s`);

      // Warm-up: the same writes, unmeasured; every watch must be live and caught up before the measurement starts.
      const warm = await writeAtRate(writer, rate, cfg.warmupSeconds, 1);
      await drain(clients, watchers * warm.filter((w) => w.rv !== undefined).length);

      const profilePath = ctx.profilePath(name);
      if (profilePath) await server.startProfile();
      const before = await cpuNow(server, clients);
      await clients.call({ method: 'loopDelay' }); // resets it
      const writes = await writeAtRate(writer, rate, cfg.fanout.seconds, warm.length + 1);
      const acked = writes.filter((w): w is Write & { rv: number } => w.rv !== undefined);
      if (!acked.length) throw new Error(`watch fan-out: none of ${writes.length} patches of w1 succeeded (statuses ${[...new Set(writes.map((w) => w.status))].join(', ')})`);
      const lastAck = Math.max(...acked.map((w) => w.ack));
      await drain(clients, watchers * (warm.filter((w) => w.rv !== undefined).length + acked.length));
      const after = await cpuNow(server, clients);
      const watchClientsLoopDelayMs = (await clients.call({ method: 'loopDelay' })) as LoopDelay;
      if (profilePath) await server.stopProfile(profilePath);

      const delivery = (await clients.call({ method: 'collect', acks: acked.map((w) => [w.rv, w.ack]) })) as DeliveryStats;
      if (profilePath) profiles[name] = delivery.delivered;
      const first = writes[0]!.sent;
      const windowS = (after.at - before.at) / 1000;
      const writeLatencies = acked.map((w) => w.ack - w.sent).sort((a, b) => a - b);
      const rank = (p: number) => writeLatencies[Math.max(0, Math.ceil(p * writeLatencies.length) - 1)] ?? NaN;
      const durationSeconds = (lastAck - first) / 1000;
      const serverCpu = (after.server - before.server) / 1e6;
      const watchClients = (after.clients - before.clients) / 1e6;
      const writerCpu = (after.writer - before.writer) / 1e6;
      return {
        title: `watch fan-out ${watchers}${over}`,
        watchers,
        http2Connections,
        targetUpdatesPerSec: rate,
        durationSeconds,
        updates: acked.length,
        updatesPerSec: acked.length / durationSeconds,
        failedUpdates: writes.length - acked.length,
        failedStatuses: failures(writes),
        writeLatencyMs: { p50: rank(0.5), p99: rank(0.99), max: rank(1) },
        eventsPerSec: delivery.delivered / ((delivery.lastDeliveryMs - first) / 1000),
        tailMs: delivery.lastDeliveryMs - lastAck,
        openMs: open.ms,
        delivery,
        serverMicrosPerEvent: delivery.delivered ? (serverCpu * 1e6) / delivery.delivered : NaN,
        watchClientsLoopDelayMs,
        cpu: {
          server: serverCpu / windowS,
          watchClients: watchClients / windowS,
          writer: writerCpu / windowS,
          other: Math.max(0, ((after.machineMs - before.machineMs) / 1000 - serverCpu - watchClients - writerCpu) / windowS),
        },
      };
    } finally {
      writer.close();
      await clients.close();
    }
  });
}

interface Write {
  seq: number;
  sent: number;
  ack: number;
  status: number;
  /** The start of the answer, when it was not 200. */
  error?: string;
  /** The resourceVersion the write produced (200 only). */
  rv?: number;
}

interface Patcher {
  patch(seq: number): Promise<{ status: number; rv?: number; error?: string }>;
  close(): void;
}

/** Merge patches of w1 over keep-alive connections, one per write in flight. */
function patcher(url: string, caPem: string, token: string): Patcher {
  const client = httpsClient(url, caPem, token, maxWritesInFlight);
  return {
    patch: async (seq) => {
      const res = await client.send('PATCH', widgetPath, 'application/merge-patch+json', JSON.stringify({ spec: { replicas: seq } }));
      const text = res.body.toString('utf8');
      if (res.status !== 200) return { status: res.status, error: text.slice(0, 300) };
      const rv = (JSON.parse(text) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
      return { status: res.status, ...(rv !== undefined && /^\d+$/.test(rv) ? { rv: Number(rv) } : {}) };
    },
    close: () => client.close(),
  };
}

/**
 * Patches w1 `rate` times a second for `seconds`, paced by a timer: write i is sent at start + i/rate, or as soon as a
 * write slot is free if that is later — at most `maxWritesInFlight` at a time, so a slow server lowers the achieved
 * rate instead of piling up requests. Every write changes w1 (spec.replicas = its sequence number), so every one makes
 * a new resourceVersion.
 */
async function writeAtRate(p: Patcher, rate: number, seconds: number, firstSeq: number): Promise<Write[]> {
  const writes: Write[] = [];
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / rate;
  const start = nowMs();
  const end = start + seconds * 1000;
  for (let i = 0; ; i++) {
    const due = start + i * interval;
    if (due >= end) break;
    const wait = due - nowMs();
    if (wait >= 1) await sleep(wait);
    while (inFlight.size >= maxWritesInFlight) await Promise.race(inFlight);
    if (nowMs() >= end) break;
    const w: Write = { seq: firstSeq + i, sent: nowMs(), ack: NaN, status: 0 };
    writes.push(w);
    const done: Promise<void> = p.patch(w.seq).then(
      (r) => {
        w.ack = nowMs();
        w.status = r.status;
        if (r.rv !== undefined) w.rv = r.rv;
        if (r.error !== undefined) w.error = r.error;
      },
      (err: unknown) => {
        w.ack = nowMs();
        w.error = String(err);
      },
    );
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  }
  await Promise.all(inFlight);
  return writes;
}

/** Waits until the watch clients have received `expected` MODIFIED events in all, or until that stops progressing. */
async function drain(clients: WatchClients, expected: number): Promise<void> {
  const start = nowMs();
  let last = -1;
  let lastChange = start;
  for (;;) {
    const n = (await clients.call({ method: 'received' })) as number;
    const now = nowMs();
    if (n >= expected) return;
    if (n !== last) {
      last = n;
      lastChange = now;
    }
    if (now - lastChange > drainStallMs || now - start > drainLimitMs) return;
    await sleep(20);
  }
}

function failures(writes: Write[]): FanoutFigures['failedStatuses'] {
  const out: FanoutFigures['failedStatuses'] = {};
  for (const w of writes) {
    if (w.rv !== undefined) continue;
    const f = (out[String(w.status)] ??= { count: 0, first: w.error ?? '' });
    f.count++;
  }
  return out;
}

async function cpuNow(server: ServerProcess, clients: WatchClients) {
  const [s, w] = await Promise.all([server.cpuMicros(), clients.call({ method: 'cpuMicros' }) as Promise<number>]);
  const self = process.cpuUsage();
  return { at: nowMs(), server: s, clients: w, writer: self.user + self.system, machineMs: machineCpuMs().busy };
}

type WatchClients = HelperChild<WatchClientsCall>;
