/**
 * Child process: the watch clients of the fan-out benchmark (bench/watch-fanout.ts). It opens N watches, each over
 * its own TLS connection (no keep-alive, no socket limit), and notes for every MODIFIED event the resourceVersion and
 * the time its bytes reached this process. At the end the parent sends the write acknowledgements (resourceVersion →
 * time) and the child reduces the pairs to the delivery figures, so millions of timestamps never cross the IPC
 * channel.
 *
 * Times are `process.hrtime` (CLOCK_MONOTONIC, one clock for all processes of the machine) in milliseconds, so they
 * compare with the writer's in the parent.
 */
import https from 'node:https';
import type { ClientRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { answerCalls } from './helper-child.js';

export interface WatchClientsSettings {
  url: string;
  caCertPem: string;
  token: string;
}

export type WatchClientsCall =
  /** Opens `count` watches of `path` (which carries `watch=1&resourceVersion=…`), `concurrency` handshakes at a time. */
  | { method: 'open'; path: string; count: number; concurrency: number }
  /** MODIFIED events received so far, over all watches. */
  | { method: 'received' }
  /** This process's CPU time (user + system) so far, microseconds. */
  | { method: 'cpuMicros' }
  /** This process's event-loop delay since the last such call (how late it could have read events), ms; then resets. */
  | { method: 'loopDelay' }
  /** The delivery figures for the writes acknowledged at `acks` ([resourceVersion, ack time ms]). */
  | { method: 'collect'; acks: [number, number][] }
  /** Closes every watch and exits. */
  | { method: 'close' };

export interface OpenResult {
  opened: number;
  /** Why watches could not be opened (status and body, or the socket error), first few. */
  failures: string[];
  failed: number;
  ms: number;
}

/** Event-loop delay percentiles, ms (sampled every 5 ms). */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

export interface DeliveryStats {
  watchers: number;
  /** Watchers × acknowledged writes. */
  expected: number;
  /** Distinct (watcher, write) pairs whose MODIFIED event arrived. */
  delivered: number;
  lost: number;
  /** MODIFIED events of an acknowledged write a watcher received more than once. */
  duplicates: number;
  /** Event received − write acknowledged, over all delivered pairs; negative when the event beat the response. */
  latencyMs: { min: number; mean: number; p50: number; p90: number; p99: number; max: number };
  /** When the last delivered pair's event arrived (hrtime ms). */
  lastDeliveryMs: number;
  /** Events other than MODIFIED, by type (e.g. ERROR, BOOKMARK), over the whole life of the watches. */
  otherEvents: Record<string, number>;
  /** Watches the server ended (response end, socket error) before the clients closed them. */
  ended: number;
  /** Lines that were not watch events (no `type` or no `resourceVersion`). */
  unparsed: number;
}

interface Watch {
  req?: ClientRequest;
  /** The resourceVersion and arrival time of every MODIFIED event, in arrival order. */
  rvs: number[];
  times: number[];
  /** The incomplete last line of the stream so far. */
  tail: string;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

const settings = JSON.parse(process.argv[2] ?? '') as WatchClientsSettings;
const base = new URL(settings.url);
// One TLS connection per watch: no keep-alive (nothing to re-use while a watch streams), no cap on sockets.
const agent = new https.Agent({ ca: settings.caCertPem, keepAlive: false, maxSockets: Infinity, maxTotalSockets: Infinity });
const watches: Watch[] = [];
const otherEvents: Record<string, number> = {};
let received = 0;
let ended = 0;
let unparsed = 0;
let closing = false;
const loopDelayResolutionMs = 5;
const loopDelay = monitorEventLoopDelay({ resolution: loopDelayResolutionMs });
loopDelay.enable();

const typeAtStart = /^\{"type":"([A-Z]+)"/;
const resourceVersion = /"resourceVersion":"(\d+)"/;

/**
 * One chunk of a watch stream: newline-delimited `{"type":…,"object":…}`. The type and the object's
 * resourceVersion (the first one in the line: metadata comes before spec) are found with two regexes, not
 * JSON.parse — 200,000 events/s must not make this process the bottleneck it is measuring.
 */
function onData(w: Watch, chunk: string, at: number): void {
  let text = w.tail + chunk;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    const line = text.slice(start, nl);
    start = nl + 1;
    if (line.length === 0) continue;
    let type = typeAtStart.exec(line)?.[1];
    if (type === undefined) {
      try {
        type = String((JSON.parse(line) as { type?: unknown }).type);
      } catch {
        unparsed++;
        continue;
      }
    }
    if (type !== 'MODIFIED') {
      otherEvents[type] = (otherEvents[type] ?? 0) + 1;
      continue;
    }
    const rv = resourceVersion.exec(line)?.[1];
    if (rv === undefined) {
      unparsed++;
      continue;
    }
    w.rvs.push(Number(rv));
    w.times.push(at);
    received++;
  }
  text = text.slice(start);
  w.tail = text;
}

function openOne(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const w: Watch = { rvs: [], times: [], tail: '' };
    const req = https.request(
      {
        agent,
        hostname: base.hostname,
        port: base.port,
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${settings.token}`, accept: 'application/json' },
      },
      (res) => {
        res.setEncoding('utf8');
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve(`HTTP ${res.statusCode}: ${body.slice(0, 300)}`));
          return;
        }
        watches.push(w);
        res.on('data', (c: string) => onData(w, c, nowMs()));
        const onEnd = () => {
          if (!closing) ended++;
        };
        res.once('end', onEnd);
        res.once('error', () => undefined);
        resolve(undefined);
      },
    );
    w.req = req;
    req.on('error', (err) => {
      if (!watches.includes(w)) resolve(String(err));
      else if (!closing) ended++;
    });
    req.end();
  });
}

async function open(path: string, count: number, concurrency: number): Promise<OpenResult> {
  const started = nowMs();
  const failures: string[] = [];
  let failed = 0;
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      const failure = await openOne(path);
      if (failure !== undefined) {
        failed++;
        if (failures.length < 5) failures.push(failure);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return { opened: count - failed, failed, failures, ms: nowMs() - started };
}

function collect(acks: [number, number][]): DeliveryStats {
  const index = new Map<number, number>();
  acks.forEach(([rv], i) => index.set(rv, i));
  const ackMs = Float64Array.from(acks, ([, t]) => t);
  const latencies = new Float64Array(watches.length * acks.length);
  let delivered = 0;
  let duplicates = 0;
  let lastDeliveryMs = -Infinity;
  const seen = new Uint8Array(acks.length);
  for (const w of watches) {
    seen.fill(0);
    for (let k = 0; k < w.rvs.length; k++) {
      const i = index.get(w.rvs[k]!);
      if (i === undefined) continue; // a warm-up write
      if (seen[i]) {
        duplicates++;
        continue;
      }
      seen[i] = 1;
      const at = w.times[k]!;
      latencies[delivered++] = at - ackMs[i]!;
      if (at > lastDeliveryMs) lastDeliveryMs = at;
    }
  }
  const sorted = latencies.subarray(0, delivered).sort();
  const rank = (p: number) => (delivered ? sorted[Math.max(0, Math.ceil(p * delivered) - 1)]! : NaN);
  let sum = 0;
  for (const v of sorted) sum += v;
  const expected = watches.length * acks.length;
  return {
    watchers: watches.length,
    expected,
    delivered,
    lost: expected - delivered,
    duplicates,
    latencyMs: { min: rank(0), mean: delivered ? sum / delivered : NaN, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: rank(1) },
    lastDeliveryMs,
    otherEvents: { ...otherEvents },
    ended,
    unparsed,
  };
}

async function handle(call: WatchClientsCall): Promise<unknown> {
  switch (call.method) {
    case 'open':
      return open(call.path, call.count, call.concurrency);
    case 'received':
      return received;
    case 'cpuMicros': {
      const u = process.cpuUsage();
      return u.user + u.system;
    }
    case 'loopDelay': {
      // The histogram holds the intervals between the sampling timer's runs: the delay is what exceeds the resolution.
      const late = (ns: number) => Math.max(0, ns / 1e6 - loopDelayResolutionMs);
      const delay: LoopDelay = { p50: late(loopDelay.percentile(50)), p99: late(loopDelay.percentile(99)), max: late(loopDelay.max) };
      loopDelay.reset();
      return delay;
    }
    case 'collect':
      return collect(call.acks);
    case 'close':
      closing = true;
      for (const w of watches) w.req?.destroy();
      setImmediate(() => process.exit(0));
      return undefined;
  }
}

answerCalls<WatchClientsCall>(handle);
