/**
 * `npm run bench`: how fast is kapi next to a bare koa server on this machine?
 *
 *   1. baseline — a bare koa 3 app answering the exact bytes kapi answers for GET of one widget;
 *   2. kapi GET  — GET /apis/example.com/v1/namespaces/default/widgets/w1 (SQLite storage, bearer token), a ~1 KiB
 *      widget created as `kubectl apply` creates it (last-applied-configuration annotation, managedFields); 1 and 2 are
 *      driven by wrk (its own process, pinned to another CPU than the server's) when it is installed, else by autocannon,
 *      in turns of short windows with both servers up (bench/load.ts measureAlternating); the verdict is the median of
 *      the window-by-window ratios;
 *   3. kapi create — POST of widgets with unique names, durable (SQLite WAL, each acknowledged after its fdatasync);
 *      only 201s count; the server's CPU per create is judged against its target;
 *   4. kapi create Plain — the same for a CRD without x-kubernetes-validations rules (bench/cel-crds.ts);
 *   5. kapi create Ruled — the same for the same CRD with ten rules: 1 - Ruled/Plain is the rules' cost.
 *   6. watch fan-out (bench/watch-fanout.ts) — delivery latency of MODIFIED events to 1,000 watches while one widget
 *      is patched 200 times a second, against the same with 1 watch;
 *   7. large list (bench/list-large.ts) — lists of 10,000 widgets of ~1 KiB (most recent, resourceVersion=0, pages of
 *      500) against a bare koa server answering the same bytes, and the server's heap per object.
 *   8. apply (bench/apply-throughput.ts) — server-side applies of an object with a 50-item list-map (no-op, and with
 *      one field changed), 32 workers each on its own object, against PUTs of the same object.
 *   9. admission (bench/admission-throughput.ts) — creates with 5 in-process plugins, 3 policies, a webhook, each against none.
 *  10. etcd (bench/etcd.ts) — kapi's CPU per create with storage on a local etcd (the verdict), its creates and GETs
 *      against etcd3 puts and gets of the same bytes at the same concurrency (informational), and the create rate of 2
 *      kapi instances on that etcd against 1, in rounds (the median round is reported).
 *  11. codecs (bench/codecs.ts) — a list of 5,000 widgets and a 1,000-watch fan-out as JSON, protobuf and CBOR: speed and
 *      bytes on the wire against JSON's.
 *  12. exhaustion (bench/exhaustion.ts) — what hostile or careless clients cost everyone else: a 50,000-object list as YAML
 *      and JSON against /readyz probes, 16,000 unknown fields, 100,000 invalid items, 200 writes of 2.9 MiB (RSS), silent
 *      TLS connections.
 *  13. gc (bench/gc.ts) — an owner with BENCH_GC_DEPENDENTS dependents deleted in the background and in the foreground:
 *      time until the last dependent is gone (watched), the collector's deletes/s, and a concurrent create load's
 *      throughput during the collection against the same load's just before.
 *  14. authz (bench/authz.ts) — GET of one widget as a user bound by one RoleBinding, with RBAC (BENCH_AUTHZ_OBJECTS
 *      roles and bindings for other users in place) against AlwaysAllow.
 *  15. aggregation (bench/aggregation.ts) — GET of one widget of a backend kapi through a front kapi's APIService
 *      against straight at the backend (both servers up; the machine's non-loopback address for the Endpoints).
 *  16. overload (bench/overload.ts) — a quiet tenant's GETs and /healthz (p99 ≤ 100 ms) while a noisy tenant sends 10× the
 *      server's capacity, with priority and fairness, and with max-in-flight for comparison.
 *  17. crds (bench/crds.ts) — BENCH_CRDS CRDs applied together: time until all are Established, RSS per CRD, `kubectl
 *      api-resources`, /openapi/v2 and v3 first and cached, the event loop's longest hold while they are rebuilt,
 *      discovery's ETag between reads.
 *
 * Every server runs alone in its own child process (one at a time, a fresh process per measurement), over HTTPS with
 * the same ensurePki certificate; autocannon drives 32 connections from this process (wrk for 1 and 2). On a 2-core
 * machine that is one core for the server and one for the load generator.
 *
 * Env: BENCH_SECONDS (default 10), BENCH_WARMUP_SECONDS (default 2, also the fan-out's warm-up), BENCH_PROFILE=1 (V8 CPU
 * profile of every server child over its measured window, saved in bench/results/profiles and summarized after the
 * figures; profiling slows the servers, so do not compare those figures with unprofiled ones),
 * BENCH_KEEP_DATA=1 (keep the temp dir),
 * BENCH_ONLY=core,fanout,list,apply,admission,etcd,codecs,exhaustion,gc,authz,aggregation,overload,crds (run only these
 * groups: core = 1–5, fanout = 6, list = 7, apply = 8, admission = 9, etcd = 10, codecs = 11, exhaustion = 12, gc = 13,
 * authz = 14, aggregation = 15, overload = 16, crds = 17; default all;
 * results of a partial run are saved as latest-<groups>.json so they do not replace a full run's latest.json),
 * BENCH_FANOUT_SECONDS (default 10), BENCH_FANOUT_WATCHERS (default 1000), BENCH_LIST_OBJECTS (default 10000),
 * BENCH_LIST_RUNS (measured lists per variant, default 7), BENCH_ETCD_ROUNDS (rounds of the etcd pairs, default 3),
 * BENCH_EXHAUSTION_OBJECTS (widgets in the exhaustion group's list, default 50000), BENCH_GC_DEPENDENTS (dependents of the
 * gc group's owner, default 1000), BENCH_AUTHZ_OBJECTS (roles and bindings in place in the authz group, default 1000),
 * BENCH_CRDS (CRDs of the crds group, default 2000).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAdminToken, ensurePki } from '../plugins/auth/index.js';
import { benchConfig, benchPhases } from './config.js';
import type { BenchContext } from './context.js';
import { describeEnvironment } from './environment.js';
import { httpsClient } from './https-client.js';
import { measure, measureAlternating, type AlternatingLoad, type LoadSpec } from './load.js';
import { formatProfileSummary, summarizeProfile } from './profile-summary.js';
import { checkCelRulesEnforced, installCelCrds, waitForCelServed } from './cel-setup.js';
import { celCollectionPath, celObject, type CelKind } from './cel-crds.js';
import { runListLarge } from './list-large.js';
import { runApplyThroughput } from './apply-throughput.js';
import { runAdmissionThroughput } from './admission-throughput.js';
import { runEtcdThroughput } from './etcd.js';
import { runCodecs } from './codecs.js';
import { runExhaustion } from './exhaustion.js';
import { runGarbageCollection } from './gc.js';
import { runAuthz } from './authz.js';
import { runAggregation } from './aggregation.js';
import { runOverload } from './overload.js';
import { runCrds } from './crds.js';
import { buildResults, formatResults, saveResults, type CoreFigures } from './report.js';
import { withServer, type ServerProcess } from './server-process.js';
import { getLoadGenerator } from './wrk.js';
import { pinProcess } from './cpu-pinning.js';
import { runWatchFanout } from './watch-fanout.js';
import { applyWidgetW1, fetchWidgetW1, installWidgetsCrd, waitForWidgetsServed, widgetCreateLoad, widgetPath } from './widgets.js';
import type { BaselineServerSettings } from './baseline-server.js';
import type { KapiServerSettings } from './kapi-server.js';

const resultsDir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
const profileDir = join(resultsDir, 'profiles');

const cfg = benchConfig();
/** The GET windows of baseline and kapi taken in turns: 5 (of 2 s with the default 10 s), fewer for a short BENCH_SECONDS. */
const getRounds = Math.max(1, Math.min(5, Math.floor(cfg.seconds)));
const root = await mkdtemp(join(tmpdir(), 'kapi-bench-'));
try {
  const pkiDir = join(root, 'pki');
  const dataDir = join(root, 'data');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const pki = await ensurePki(pkiDir, { hosts: ['127.0.0.1'] });
  const token = await ensureAdminToken(dataDir);
  const kapi: KapiServerSettings = { dataDir, pkiDir, token };
  const client = (url: string) => httpsClient(url, pki.caCertPem, token);
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const profile = (name: string): string | undefined => (cfg.profile ? join(profileDir, `${name}.cpuprofile`) : undefined);
  if (cfg.profile) await mkdir(profileDir, { recursive: true });
  const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
  const environment = await describeEnvironment(dataDir);
  const ctx: BenchContext = { cfg, root, pkiDir, caCertPem: pki.caCertPem, token, log, profilePath: profile };

  const core = cfg.only.includes('core') ? await runCore() : undefined;
  const watchFanout = cfg.only.includes('fanout') ? await runWatchFanout(ctx) : undefined;
  const listLarge = cfg.only.includes('list') ? await runListLarge(ctx) : undefined;
  const apply = cfg.only.includes('apply') ? await runApplyThroughput(ctx) : undefined;
  const admission = cfg.only.includes('admission') ? await runAdmissionThroughput(ctx) : undefined;
  const etcd = cfg.only.includes('etcd') ? await runEtcdThroughput(ctx) : undefined;
  const codecs = cfg.only.includes('codecs') ? await runCodecs(ctx) : undefined;
  const exhaustion = cfg.only.includes('exhaustion') ? await runExhaustion(ctx) : undefined;
  const gc = cfg.only.includes('gc') ? await runGarbageCollection(ctx) : undefined;
  const authz = cfg.only.includes('authz') ? await runAuthz(ctx) : undefined;
  const aggregation = cfg.only.includes('aggregation') ? await runAggregation(ctx) : undefined;
  const overload = cfg.only.includes('overload') ? await runOverload(ctx) : undefined;
  const crds = cfg.only.includes('crds') ? await runCrds(ctx) : undefined;

  const results = buildResults(cfg, environment, {
    ...(core ? { core } : {}),
    ...(watchFanout ? { watchFanout } : {}),
    ...(listLarge ? { listLarge } : {}),
    ...(apply ? { apply } : {}),
    ...(admission ? { admission } : {}),
    ...(etcd ? { etcd } : {}),
    ...(codecs ? { codecs } : {}),
    ...(exhaustion ? { exhaustion } : {}),
    ...(gc ? { gc } : {}),
    ...(authz ? { authz } : {}),
    ...(aggregation ? { aggregation } : {}),
    ...(overload ? { overload } : {}),
    ...(crds ? { crds } : {}),
  });
  const out = join(resultsDir, cfg.only.length === benchPhases.length ? 'latest.json' : `latest-${cfg.only.join('-')}.json`);
  await saveResults(out, results);
  console.log(formatResults(results));
  console.log(`  results: ${out}`);
  if (cfg.profile) {
    const profiled: Record<string, number> = {
      ...(core ? { baseline: core.baseline.total, 'kapi-get': core.get.total, 'kapi-create': core.create.total } : {}),
      ...(core ? { 'kapi-create-plain': core.createPlain.total, 'kapi-create-ruled': core.createRuled.total } : {}),
      ...watchFanout?.profiles,
      ...listLarge?.profiles,
      ...apply?.profiles,
      ...admission?.profiles,
      ...etcd?.profiles,
      ...codecs?.profiles,
      ...(authz ? { 'kapi-get-always-allow': authz.alwaysAllow.total, 'kapi-get-rbac': authz.rbac.total } : {}),
      ...(aggregation ? { 'aggregation-backend-direct': aggregation.direct.total, 'aggregation-front': aggregation.throughFront.total } : {}),
    };
    for (const [name, operations] of Object.entries(profiled)) {
      console.log('\n' + formatProfileSummary(await summarizeProfile(join(profileDir, `${name}.cpuprofile`)), operations));
    }
  }

  /** Measurements 1–5: GET and create throughput against the bare koa baseline, and the CEL rules' cost. */
  async function runCore(): Promise<CoreFigures> {
    // Set-up in a throw-away kapi process: install the CRD, apply w1, and capture what GET of w1 answers.
    log(`set-up: CRD widgets.example.com and widget w1 (as kubectl apply creates it) in ${dataDir}`);
    const w1 = await withServer('./kapi-server.js', kapi, async (url) => {
      const c = client(url);
      await installWidgetsCrd(c);
      await waitForWidgetsServed(c);
      await applyWidgetW1(c);
      return fetchWidgetW1(c);
    });
    const getLoad = await getLoadGenerator(log);
    const getSpec = (title: string, url: string): LoadSpec => ({ title, url, okStatus: 200, path: widgetPath, headers });

    // Both servers run throughout, their GETs measured in turns (see measureAlternating), pinned apart from wrk.
    log(`baseline: bare koa serving the ${Buffer.byteLength(w1.body)} bytes of w1; kapi GET widget w1, measured in turns with it`);
    const baselineSettings: BaselineServerSettings = { pkiDir, path: widgetPath, body: w1.body, contentType: w1.contentType };
    const [baseline, get] = await withServer('./baseline-server.js', baselineSettings, (baselineUrl, baselineServer) =>
      withServer('./kapi-server.js', kapi, async (url, server) => {
        await expectSameBytes(client(baselineUrl), w1.body, 'baseline');
        await waitForWidgetsServed(client(url));
        await expectSameBytes(client(url), w1.body, 'kapi');
        if (getLoad.cpuPinning) for (const s of [baselineServer, server]) await pinProcess(s.pid, getLoad.cpuPinning.server);
        const load = (spec: LoadSpec, s: ServerProcess, profileName: string): AlternatingLoad => {
          const profilePath = profile(profileName);
          return { spec, server: s, ...(profilePath ? { profilePath } : {}) };
        };
        const loads = [load(getSpec('baseline', baselineUrl), baselineServer, 'baseline'), load(getSpec('kapi GET', url), server, 'kapi-get')];
        return measureAlternating(loads, cfg, getRounds, getLoad);
      }),
    );

    log('kapi create widgets');
    const create = await withServer('./kapi-server.js', kapi, async (url, server) => {
      await waitForWidgetsServed(client(url));
      return measure(widgetCreateLoad('kapi create', url, token), cfg, server, profile('kapi-create'));
    });

    // The CEL phases. Each kind gets a fresh data dir of its own, set up alike in a throw-away process (both CRDs
    // installed, the rules shown to be enforced), so neither phase inherits the other's rows; then it is measured in
    // a fresh process, with the same body but for the kind.
    const createCel = async (kind: CelKind) => {
      const celKapi: KapiServerSettings = { ...kapi, dataDir: join(root, `data-${kind.toLowerCase()}`) };
      await mkdir(celKapi.dataDir, { recursive: true, mode: 0o700 });
      log(`set-up: CRDs plain.example.com and ruled.example.com (10 CEL rules) in ${celKapi.dataDir}`);
      await withServer('./kapi-server.js', celKapi, async (url) => {
        const c = client(url);
        await installCelCrds(c);
        await waitForCelServed(c);
        await checkCelRulesEnforced(c);
      });
      log(`kapi create ${kind}${kind === 'Ruled' ? ' (10 CEL rules)' : ' (no rules)'}`);
      return withServer('./kapi-server.js', celKapi, async (url, server) => {
        await waitForCelServed(client(url));
        return measure(
          {
            title: `kapi create ${kind}`,
            url,
            okStatus: 201,
            method: 'POST',
            path: celCollectionPath(kind),
            headers: { ...headers, 'content-type': 'application/json' },
            body: (phase, seq) => JSON.stringify(celObject(kind, `bench-${phase}-${seq}`)),
          },
          cfg,
          server,
          profile(`kapi-create-${kind.toLowerCase()}`),
        );
      });
    };
    const createPlain = await createCel('Plain');
    const createRuled = await createCel('Ruled');
    return { baseline, get, create, createPlain, createRuled };
  }
} finally {
  if (process.env['BENCH_KEEP_DATA'] === '1') console.error(`bench: kept ${root}`);
  else await rm(root, { recursive: true, force: true });
}

/** The comparison is only fair if both servers send the same bytes. */
async function expectSameBytes(c: ReturnType<typeof httpsClient>, expected: string, who: string): Promise<void> {
  const res = await c.request('GET', widgetPath);
  if (res.status !== 200 || res.body.toString('utf8') !== expected) {
    throw new Error(`${who} does not answer the same bytes for ${widgetPath} (HTTP ${res.status}, ${res.body.length} bytes)`);
  }
}
