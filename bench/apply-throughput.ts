/**
 * Server-side apply throughput: how many applies a second next to plain updates of the same object?
 *
 * A CRD of our own (gadgets.bench.example.com, kind Gadget) whose spec holds two scalars and `ports`, a list-map of
 * 50 items keyed by name — the shape that makes apply work hardest (field sets, merge by key, managed fields). A
 * throw-away kapi process installs it and creates 32 gadgets per measurement: `put-<i>` by POST, `noop-<i>` and
 * `change-<i>` by a first apply (fieldManager=bench). Then each measurement runs in a fresh kapi process on that data
 * dir, with 32 workers, one per object, each over its own keep-alive TLS connection, sending its next request as soon
 * as the previous one is answered (an unmeasured warm-up, then the measured window):
 *   - PUT (the baseline): the full object, with the resourceVersion its previous PUT answered and spec.replicas
 *     changed, so every PUT is a real write (kapi refuses a PUT of a custom resource without resourceVersion);
 *   - no-op apply: PATCH ?fieldManager=bench, application/apply-patch+yaml (a JSON body), of the unchanged configuration;
 *   - change apply: the same with spec.replicas changed every time.
 * Only 200s count; every 200's resourceVersion is checked against the lane's previous one: new after a PUT or a change
 * apply, the same after a no-op apply (a no-op apply must not write).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { machineCpuMs } from './environment.js';
import { expectStatus, httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { waitForServed } from './served.js';
import { withServer, type ServerProcess } from './server-process.js';

export type ApplyWorkload = 'put' | 'noop' | 'change';

export interface ApplyFigures {
  title: string;
  workload: ApplyWorkload;
  /** 200s per second over the measured window. */
  reqPerSec: number;
  latencyMs: { p50: number; p99: number; max: number };
  durationSeconds: number;
  ok: number;
  total: number;
  /** Answers other than 200 (0: no answer), with the first body of each status. */
  failures: Record<string, { count: number; first: string }>;
  /** 200s whose resourceVersion was not as expected (new for PUT and change, the previous one for no-op), with the first. */
  wrongResourceVersion: { count: number; first?: string };
  /** Bytes of one request body. */
  requestBytes: number;
  serverCpu?: { coreShare: number; microsPerOk: number };
  clientCoreShare: number;
  otherCoreShare?: number;
}

export interface ApplyResults {
  items: number;
  workers: number;
  put: ApplyFigures;
  noop: ApplyFigures;
  change: ApplyFigures;
  /** Names of the server CPU profiles taken (BENCH_PROFILE=1) → 200s in their window. */
  profiles: Record<string, number>;
}

const group = 'bench.example.com';
const groupVersionPath = `/apis/${group}/v1`;
const collectionPath = `${groupVersionPath}/namespaces/default/gadgets`;
const fieldManager = 'bench';
const applyType = 'application/apply-patch+yaml';
const items = 50;

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

export async function runApplyThroughput(ctx: BenchContext): Promise<ApplyResults> {
  const { cfg, log } = ctx;
  const workers = cfg.connections;
  const kapi: KapiServerSettings = { dataDir: join(ctx.root, 'data-apply'), pkiDir: ctx.pkiDir, token: ctx.token };
  await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
  const profiles: Record<string, number> = {};

  log(`set-up: CRD gadgets.${group} (${items}-item list-map) and ${3 * workers} gadgets in ${kapi.dataDir}`);
  await withServer('./kapi-server.js', kapi, async (url) => {
    const c = httpsClient(url, ctx.caCertPem, ctx.token);
    expectStatus(await c.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', gadgetsCrd), [201], `create CRD gadgets.${group}`);
    await waitForServed(c, groupVersionPath, ['gadgets']);
    const conn = httpsClient(url, ctx.caCertPem, ctx.token, 1);
    try {
      for (let i = 0; i < workers; i++) {
        expectStatus(await c.request('POST', collectionPath, gadget(`put-${i}`, 0)), [201], `create gadget put-${i}`);
        for (const name of [`noop-${i}`, `change-${i}`]) {
          const res = await conn.send('PATCH', applyPath(name), applyType, JSON.stringify(gadget(name, 0)));
          if (res.status !== 201) throw new Error(`create gadget ${name} by apply: HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 500)}`);
        }
      }
    } finally {
      conn.close();
    }
  });

  const measureOne = async (workload: ApplyWorkload, title: string): Promise<ApplyFigures> => {
    log(`${title}: ${workers} workers, ${cfg.warmupSeconds} s warm-up + ${cfg.seconds} s`);
    return withServer('./kapi-server.js', kapi, async (url, server) => {
      await waitForServed(httpsClient(url, ctx.caCertPem, ctx.token), groupVersionPath, ['gadgets']);
      const profile = workload === 'put' ? 'kapi-put' : `kapi-apply-${workload}`;
      const figures = await drive(ctx, url, server, workload, title, ctx.profilePath(profile));
      if (ctx.profilePath(profile)) profiles[profile] = figures.ok;
      return figures;
    });
  };
  const put = await measureOne('put', 'kapi PUT gadget');
  const noop = await measureOne('noop', 'kapi apply no-op');
  const change = await measureOne('change', 'kapi apply 1 change');
  return { items, workers, put, noop, change, profiles };
}

/** One worker's object and what it last saw of it. */
interface Lane {
  name: string;
  conn: HttpsClient;
  /** The resourceVersion its last 200 answered (the object's before the warm-up, at first). */
  rv: string;
  seq: number;
}

interface Tally {
  latencies: number[];
  failures: ApplyFigures['failures'];
  wrong: ApplyFigures['wrongResourceVersion'];
  total: number;
  /** Bytes of the last request body sent. */
  bytes: number;
}

/** Warm-up, then the measured window, with one lane per worker; the lanes keep their state from one to the other. */
async function drive(
  ctx: BenchContext,
  url: string,
  server: ServerProcess,
  workload: ApplyWorkload,
  title: string,
  profilePath?: string,
): Promise<ApplyFigures> {
  const { cfg } = ctx;
  const lanes: Lane[] = [];
  try {
    for (let i = 0; i < cfg.connections; i++) {
      const lane: Lane = { name: `${workload}-${i}`, conn: httpsClient(url, ctx.caCertPem, ctx.token, 1), rv: '', seq: 0 };
      lanes.push(lane);
      lane.rv = await currentRv(lane.conn, lane.name);
    }
    await run(lanes, workload, cfg.warmupSeconds);
    if (profilePath) await server.startProfile();
    const cpuBefore = await server.cpuMicros();
    const clientBefore = process.cpuUsage();
    const machineBefore = machineCpuMs().busy;
    const start = nowMs();
    const t = await run(lanes, workload, cfg.seconds);
    const seconds = (nowMs() - start) / 1000;
    const machine = machineCpuMs().busy - machineBefore;
    const client = process.cpuUsage(clientBefore);
    const serverMicros = (await server.cpuMicros()) - cpuBefore;
    if (profilePath) await server.stopProfile(profilePath);
    const ok = t.latencies.length;
    const sorted = t.latencies.sort((a, b) => a - b);
    const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
    return {
      title,
      workload,
      reqPerSec: ok / seconds,
      latencyMs: { p50: rank(0.5), p99: rank(0.99), max: rank(1) },
      durationSeconds: seconds,
      ok,
      total: t.total,
      failures: t.failures,
      wrongResourceVersion: t.wrong,
      requestBytes: t.bytes,
      serverCpu: { coreShare: serverMicros / 1e6 / seconds, microsPerOk: ok ? serverMicros / ok : 0 },
      clientCoreShare: (client.user + client.system) / 1e6 / seconds,
      otherCoreShare: Math.max(0, (machine * 1000 - serverMicros - client.user - client.system) / 1e6 / seconds),
    };
  } finally {
    for (const l of lanes) l.conn.close();
  }
}

/** Every lane sends its next request as soon as the previous one is answered, until `seconds` have passed. */
async function run(lanes: Lane[], workload: ApplyWorkload, seconds: number): Promise<Tally> {
  const t: Tally = { latencies: [], failures: {}, wrong: { count: 0 }, total: 0, bytes: 0 };
  const end = nowMs() + seconds * 1000;
  await Promise.all(
    lanes.map(async (lane) => {
      while (nowMs() < end) {
        const { method, path, contentType, body } = request(lane, workload);
        t.bytes = Buffer.byteLength(body);
        const sent = nowMs();
        const res = await lane.conn.send(method, path, contentType, body).catch((err: unknown) => ({ status: 0, body: Buffer.from(String(err)) }));
        t.total++;
        if (res.status !== 200) {
          const f = (t.failures[String(res.status)] ??= { count: 0, first: res.body.toString('utf8').slice(0, 300) });
          f.count++;
          if (workload === 'put') lane.rv = await currentRv(lane.conn, lane.name).catch(() => lane.rv); // e.g. after a 409
          continue;
        }
        t.latencies.push(nowMs() - sent);
        const rv = (JSON.parse(res.body.toString('utf8')) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? '';
        const changed = rv !== lane.rv;
        if (changed !== (workload !== 'noop')) {
          t.wrong.count++;
          t.wrong.first ??= `${lane.name}: resourceVersion ${lane.rv} → ${rv}`;
        }
        lane.rv = rv;
      }
    }),
  );
  return t;
}

/** A lane's next request; PUT and change apply set spec.replicas to a new number each time. */
function request(lane: Lane, workload: ApplyWorkload): { method: string; path: string; contentType: string; body: string } {
  if (workload === 'put') {
    const obj = gadget(lane.name, ++lane.seq) as { metadata: Record<string, unknown> };
    obj.metadata['resourceVersion'] = lane.rv;
    return { method: 'PUT', path: `${collectionPath}/${lane.name}`, contentType: 'application/json', body: JSON.stringify(obj) };
  }
  const replicas = workload === 'noop' ? 0 : ++lane.seq;
  return { method: 'PATCH', path: applyPath(lane.name), contentType: applyType, body: JSON.stringify(gadget(lane.name, replicas)) };
}

async function currentRv(conn: HttpsClient, name: string): Promise<string> {
  const res = await conn.request('GET', `${collectionPath}/${name}`);
  if (res.status !== 200) throw new Error(`get gadget ${name}: HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
  return (JSON.parse(res.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}

const applyPath = (name: string) => `${collectionPath}/${name}?fieldManager=${fieldManager}`;

/** A Gadget: the two scalars and the 50 ports; only `replicas` varies. */
function gadget(name: string, replicas: number): Record<string, unknown> {
  const ports = Array.from({ length: items }, (_, i) => ({ name: `port-${String(i).padStart(2, '0')}`, port: 8000 + i, protocol: i % 2 ? 'UDP' : 'TCP' }));
  const spec = { image: 'registry.example.com/gadget:1.0.0', replicas, ports };
  return { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name, namespace: 'default' }, spec };
}

const gadgetsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  image: { type: 'string' },
                  replicas: { type: 'integer' },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: {
                      type: 'object',
                      required: ['name'],
                      properties: { name: { type: 'string' }, port: { type: 'integer' }, protocol: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};
