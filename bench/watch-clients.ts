/**
 * Child process: the watch clients of the fan-out benchmark (bench/watch-fanout.ts). It opens N watches, each over
 * its own TLS connection (HTTP/1.1, no keep-alive, no socket limit) or as streams spread over a few HTTP/2
 * connections (as client-go multiplexes a process's watches over one), and notes for every MODIFIED event the resourceVersion and
 * the time its bytes reached this process. At the end the parent sends the write acknowledgements (resourceVersion →
 * time) and the child reduces the pairs to the delivery figures, so millions of timestamps never cross the IPC
 * channel.
 *
 * Times are `process.hrtime` (CLOCK_MONOTONIC, one clock for all processes of the machine) in milliseconds, so they
 * compare with the writer's in the parent.
 */
import https from 'node:https';
import http2 from 'node:http2';
import type { ClientRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { answerCalls } from './helper-child.js';

export interface WatchClientsSettings {
  url: string;
  caCertPem: string;
  token: string;
  /** Open the watches as streams of this many HTTP/2 connections (round robin); absent: one HTTP/1.1 connection each. */
  http2Connections?: number;
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
  req?: ClientRequest | http2.ClientHttp2Stream;
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

/** A watch's answer body: (for a 200) its events as UTF-8 text, until it ends or fails. */
interface WatchBody {
  on(event: 'data', listener: (chunk: string) => void): unknown;
  once(event: 'end' | 'error', listener: () => void): unknown;
}

/** Reads a watch's answer: resolves with the failure's text, or undefined once it streams events. */
function follow(w: Watch, status: number, answer: WatchBody, resolve: (failure: string | undefined) => void): void {
  if (status !== 200) {
    let body = '';
    answer.on('data', (c) => (body += c));
    answer.once('end', () => resolve(`HTTP ${status}: ${body.slice(0, 300)}`));
    return;
  }
  watches.push(w);
  answer.on('data', (c) => onData(w, c, nowMs()));
  answer.once('end', () => {
    if (!closing) ended++;
  });
  answer.once('error', () => undefined);
  resolve(undefined);
}

function onWatchError(w: Watch, resolve: (failure: string | undefined) => void, err: Error): void {
  if (!watches.includes(w)) resolve(String(err));
  else if (!closing) ended++;
}

const headers = { authorization: `Bearer ${settings.token}`, accept: 'application/json' };

function openOne(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const w: Watch = { rvs: [], times: [], tail: '' };
    const req = https.request({ agent, hostname: base.hostname, port: base.port, method: 'GET', path, headers }, (res) => {
      res.setEncoding('utf8');
      follow(w, res.statusCode ?? 0, res, resolve);
    });
    w.req = req;
    req.on('error', (err) => onWatchError(w, resolve, err));
    req.end();
  });
}

const sessions: http2.ClientHttp2Session[] = [];
let streamsOpened = 0;

/** The next HTTP/2 connection, round robin, with the flow-control windows of Go's transport (client-go's): 4 MiB a stream, 1 GiB the connection. */
function nextSession(connections: number): http2.ClientHttp2Session {
  const i = streamsOpened++ % connections;
  let session = sessions[i];
  if (!session) {
    session = http2.connect(settings.url, { ca: settings.caCertPem, settings: { initialWindowSize: 4 << 20 } });
    session.once('connect', (s) => s.setLocalWindowSize(1 << 30));
    session.on('error', () => undefined); // each stream reports it
    sessions[i] = session;
  }
  return session;
}

function openStream(path: string, connections: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const w: Watch = { rvs: [], times: [], tail: '' };
    const stream = nextSession(connections).request({ ':method': 'GET', ':path': path, ...headers });
    w.req = stream;
    stream.setEncoding('utf8');
    stream.once('response', (h) => follow(w, Number(h[':status']), stream, resolve));
    stream.on('error', (err) => onWatchError(w, resolve, err));
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
      const failure = await (settings.http2Connections ? openStream(path, settings.http2Connections) : openOne(path));
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
      for (const s of sessions) s.destroy();
      setImmediate(() => process.exit(0));
      return undefined;
  }
}

answerCalls<WatchClientsCall>(handle);
