/** What every measurement of `npm run bench` shares: load shape, durations and the targets it is judged by. */
export interface BenchConfig {
  /** Concurrent keep-alive connections autocannon holds open. */
  connections: number;
  /** Length of each measurement, seconds (env BENCH_SECONDS; default 10). */
  seconds: number;
  /** Unmeasured load before each measurement so the server's JIT and caches are warm (env BENCH_WARMUP_SECONDS; default 2). */
  warmupSeconds: number;
  /** CPU-profile every server child over its measured window into bench/results/profiles (env BENCH_PROFILE=1). */
  profile: boolean;
  /** Which groups of measurements run (env BENCH_ONLY, comma-separated; default all). */
  only: BenchPhase[];
  fanout: FanoutConfig;
  list: ListConfig;
  /** Rounds of the etcd group's measurements; the median round is reported (env BENCH_ETCD_ROUNDS; default 3). */
  etcdRounds: number;
  /** Dependents of the owner the gc group deletes (env BENCH_GC_DEPENDENTS; default 1000). */
  gcDependents: number;
  /** Roles and as many RoleBindings (for other users) in place in the authz group (default 1000). */
  authzObjects: number;
  /** CRDs the crds group applies together (env BENCH_CRDS; default 2000). */
  crds: number;
}

/**
 * The groups of measurements: `core` = baseline, GET, create (and its server CPU per create) and CEL creates;
 * `fanout` = watch fan-out; `list` = large list; `apply` = server-side apply against PUT; `admission` = creates with
 * in-process plugins, policies, a webhook, each against none; `etcd` = kapi's CPU per create on etcd, creates and GETs
 * against etcd3 puts and gets, and creates by 2 kapi instances against 1; `codecs` = a 5,000-object list and a
 * 1,000-watch fan-out as JSON, protobuf and CBOR; `exhaustion` = large YAML/JSON lists, unknown fields, huge validation errors, big writes and
 * silent TLS connections; `gc` = garbage collection of an owner's dependents (Background, Foreground) and what it costs a create load;
 * `authz` = GET with RBAC against AlwaysAllow; `aggregation` = GET of an aggregated API server's resource through a front kapi against direct;
 * `overload` = a quiet tenant's and /healthz's latency while a noisy tenant asks for 10× the server's capacity.
 * `crds` = thousands of CRDs: establishment, memory, kubectl api-resources, OpenAPI builds and the event loop meanwhile.
 */
export const benchPhases = ['core', 'fanout', 'list', 'apply', 'admission', 'etcd', 'codecs', 'exhaustion', 'gc', 'authz', 'aggregation', 'overload', 'crds'] as const;
export type BenchPhase = (typeof benchPhases)[number];

/** The watch fan-out benchmark (bench/watch-fanout.ts). */
export interface FanoutConfig {
  /** Open watches in the measurement (env BENCH_FANOUT_WATCHERS; default 1000); the baseline always has 1. */
  watchers: number;
  /** Updates of the watched widget per second (paced by a timer, a few in flight at most). */
  updatesPerSecond: number;
  /** Length of the measured write window, seconds (env BENCH_FANOUT_SECONDS; default 10). */
  seconds: number;
  /** The second measurement's watches are streams spread over this many HTTP/2 connections (as client-go processes multiplex theirs). */
  http2Connections: number;
}

/** The large-list benchmark (bench/list-large.ts). */
export interface ListConfig {
  /** Widgets in the collection (env BENCH_LIST_OBJECTS; default 10000). */
  objects: number;
  /** Size each widget's JSON is padded to (an annotation of filler), bytes. */
  objectBytes: number;
  /** Concurrent POSTs while filling the collection. */
  createConcurrency: number;
  /** Page size of the paged list. */
  pageLimit: number;
  /** Unmeasured lists before the measured ones, per variant. */
  warmupRuns: number;
  /** Measured lists per variant; the median is reported (env BENCH_LIST_RUNS; default 7). */
  runs: number;
}

/** The targets from the performance issue. */
export const targets = {
  /**
   * kapi GET of a realistic custom resource (~1 KiB: managedFields, a last-applied-configuration annotation) must reach
   * this share of the bare-koa baseline's req/s for the same bytes, both driven by wrk (issue #25 item 8).
   */
  getOverBaseline: 0.6,
  /** ... with the baseline's server using at least this share of a core: below, the load generator or other work was the limit. */
  getBaselineServerCoreShareMin: 0.9,
  /** Durable creates (201s) per second. */
  createPerSecond: 1500,
  /** kapi's own server CPU per create (201) on SQLite, µs (issue #25 item 8; the core group's CPU accounting). */
  createCpuMicrosSqliteMax: 100,
  /** kapi's own server CPU per create (201) on etcd, µs (etcd's CPU is not counted). */
  createCpuMicrosEtcdMax: 200,
  /** Ten x-kubernetes-validations rules may cost at most this share of create throughput (1 - ruled/plain creates/s). */
  celRulesCostMax: 0.25,
  /** p99 of write acknowledged → MODIFIED event received, over all watchers, with 1,000 watches at 200 updates/s, ms (issue #25: 50). */
  watchFanoutP99MsMax: 50,
  /** One full (unpaged) list of 10,000 widgets, ms (median). */
  list10kMsMax: 300,
  /**
   * Heap kept per cached object ÷ the object's JSON size (issue #25: ≤ 2.0; 3.08 measured before the watch cache shared
   * the repeated parts of objects, its history lost its per-event closures, the SQLite engine its per-value views and
   * the GC graph its key strings).
   */
  cacheBytesOverJsonMax: 2,
  /** Server-side applies/s (no-op, and with one field changed) of a 50-item list-map object ÷ PUTs/s of the same object. */
  applyOverPut: 0.5,
  /** In-process admission plugins, or policies, may cost at most this share of create throughput. */
  admissionCostMax: 0.2,
  /** The longest a /readyz probe may wait while a 50,000-object list is served (the list's longest hold of the event loop), ms. */
  exhaustionProbeMsMax: 100,
  /** A hostile body (16,000 unknown fields, 100,000 invalid items) must be answered within this, ms. */
  exhaustionAnswerMsMax: 1000,
  /** No error Status may be larger. */
  statusBytesMax: 1024 * 1024,
  /** How much the server's RSS may grow over 200 writes of 2.9 MiB each, MiB. */
  bigWritesRssGrowthMiBMax: 256,
  /** A local HTTPS admission webhook may add at most this much to a create's p50 latency (one connection), ms. */
  admissionWebhookAddedP50MsMax: 2,
  /** Protobuf and CBOR lists/s and watch events/s ÷ JSON's: at least as fast, and fewer bytes on the wire. */
  codecSpeedOverJsonMin: 1,
  /** GETs/s of a user bound by RBAC (1,000 roles and bindings in place) ÷ the same GETs/s with AlwaysAllow: RBAC costs ≤ 10%. */
  rbacGetOverAlwaysAllowMin: 0.9,
  /** GETs/s of an aggregated API server's resource through a front kapi ÷ the same GETs/s straight at that server. */
  aggregationThroughFrontOverDirectMin: 0.5,
  /** p99 of a quiet tenant's GETs and of /healthz while another tenant sends 10× the server's capacity (priority and fairness), ms. */
  overloadQuietP99MsMax: 100,
  /** Thousands of CRDs (issue #25 item 7): all Established within this after being applied together, ms. */
  crdsEstablishedMsMax: 60_000,
  /** Server RSS growth per CRD, MiB. */
  crdsRssPerCrdMiBMax: 0.5,
  /** `kubectl api-resources` with a cold discovery cache, ms. */
  crdsApiResourcesMsMax: 1000,
  /** The longest the server's event loop may be held while OpenAPI is rebuilt, ms. */
  crdsEventLoopDelayMsMax: 50,
} as const;

export function benchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  return {
    connections: 32,
    seconds: positiveNumber(env['BENCH_SECONDS'], 10, 'BENCH_SECONDS'),
    warmupSeconds: positiveNumber(env['BENCH_WARMUP_SECONDS'], 2, 'BENCH_WARMUP_SECONDS'),
    profile: env['BENCH_PROFILE'] === '1' || env['BENCH_PROFILE'] === 'true',
    only: phases(env['BENCH_ONLY']),
    fanout: {
      watchers: positiveInteger(env['BENCH_FANOUT_WATCHERS'], 1000, 'BENCH_FANOUT_WATCHERS'),
      updatesPerSecond: 200,
      seconds: positiveNumber(env['BENCH_FANOUT_SECONDS'], 10, 'BENCH_FANOUT_SECONDS'),
      http2Connections: 10,
    },
    list: {
      objects: positiveInteger(env['BENCH_LIST_OBJECTS'], 10_000, 'BENCH_LIST_OBJECTS'),
      objectBytes: 1024,
      createConcurrency: 32,
      pageLimit: 500,
      warmupRuns: 2,
      runs: positiveInteger(env['BENCH_LIST_RUNS'], 7, 'BENCH_LIST_RUNS'),
    },
    etcdRounds: positiveInteger(env['BENCH_ETCD_ROUNDS'], 3, 'BENCH_ETCD_ROUNDS'),
    gcDependents: positiveInteger(env['BENCH_GC_DEPENDENTS'], 1000, 'BENCH_GC_DEPENDENTS'),
    authzObjects: positiveInteger(env['BENCH_AUTHZ_OBJECTS'], 1000, 'BENCH_AUTHZ_OBJECTS'),
    crds: positiveInteger(env['BENCH_CRDS'], 2000, 'BENCH_CRDS'),
  };
}

function phases(raw: string | undefined): BenchPhase[] {
  if (raw === undefined || raw.trim() === '') return [...benchPhases];
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (!(benchPhases as readonly string[]).includes(n)) throw new Error(`BENCH_ONLY: unknown ${JSON.stringify(n)}; known: ${benchPhases.join(', ')}`);
  }
  return benchPhases.filter((p) => names.includes(p));
}

function positiveNumber(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds, got ${JSON.stringify(raw)}`);
  return n;
}

function positiveInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}
