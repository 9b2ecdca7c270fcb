/**
 * The crds group: a server with thousands of CRDs (issue #25 item 7). A fresh kapi process (SQLite, --expose-gc) is
 * given BENCH_CRDS CRDs at once (32 POSTs in flight; one version each, ~50 schema properties, 10 kinds per group),
 * and then:
 *   - the time from the first POST until a watch of the CRDs has seen every one Established;
 *   - the server's RSS (and V8 heap after a full GC) growth per CRD, once everything (OpenAPI included) is built;
 *   - `kubectl api-resources` wall time, with a cold discovery cache and with a warm one;
 *   - /openapi/v2, /openapi/v3 and one group-version's v3 document: the first request once all are Established, then
 *     cached (median of 5), and the ETag answers with 304;
 *   - one CRD more in a new group with all of them in place: the time until /openapi/v2 has its paths;
 *   - the longest the server's event loop was held (perf_hooks monitorEventLoopDelay in the server process) while the
 *     CRDs were established, and while the documents were rebuilt for the one CRD more;
 *   - whether aggregated discovery's ETag stays the same between two reads with nothing changed.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { expectStatus, httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { withServer, type ServerProcess } from './server-process.js';
import { median } from './median.js';

export interface CrdsResults {
  crds: number;
  kindsPerGroup: number;
  propertiesPerCrd: number;
  /** First POST → every CRD seen Established on the watch, ms. */
  allEstablishedMs: number;
  /** The longest event-loop delay in the server from the first POST until all were Established, ms. */
  establishMaxEventLoopDelayMs: number;
  memory: {
    rssBeforeMiB: number;
    rssAfterMiB: number;
    rssPerCrdMiB: number;
    heapBeforeMiB: number;
    heapAfterMiB: number;
    heapPerCrdMiB: number;
  };
  apiResources: { coldMs: number; warmMs: number; lines: number };
  openapi: {
    v2: DocumentTimes;
    v3Root: DocumentTimes;
    v3GroupVersion: DocumentTimes;
    /** One more CRD (new group) created → its paths in /openapi/v2, ms; the longest event-loop delay meanwhile. */
    oneMoreCrdInV2Ms: number;
    rebuildMaxEventLoopDelayMs: number;
  };
  discovery: { etagStable: boolean; groups: number };
}

export interface DocumentTimes {
  /** The first request once every CRD was Established (it may wait for the build under way), ms. */
  firstMs: number;
  /** Median of 5 requests after it, ms. */
  cachedMs: number;
  bytes: number;
  /** A request with If-None-Match of its ETag answered 304. */
  notModified: boolean;
}

const kindsPerGroup = 10;
const propertiesPerCrd = 50;
const createConcurrency = 32;
const establishTimeoutMs = 300_000;
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

export async function runCrds(ctx: BenchContext): Promise<CrdsResults> {
  const n = ctx.cfg.crds;
  const kapi: KapiServerSettings = { dataDir: join(ctx.root, 'data-crds'), pkiDir: ctx.pkiDir, token: ctx.token };
  await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
  return withServer(
    './kapi-server.js',
    kapi,
    async (url, server) => {
      const c = httpsClient(url, ctx.caCertPem, ctx.token, createConcurrency);
      try {
        // Everything built once before the baseline, so that the growth is the CRDs'.
        for (const path of ['/openapi/v2', '/openapi/v3', '/apis']) expectStatus(await c.countAs(path, 'application/json'), [200], path);
        await sleep(1000);
        const rssBefore = await rssBytes(server.pid);
        const heapBefore = await server.heapUsedAfterGc();

        ctx.log(`crds: ${n} CRDs (${propertiesPerCrd} properties, ${kindsPerGroup} kinds per group) applied together`);
        const list = await c.request('GET', `${crdsPath}?limit=1`);
        const watch = establishedWatch(url, ctx, (JSON.parse(list.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
        await server.maxEventLoopDelayMs();
        const profile = ctx.profilePath('crds-establish');
        if (profile) await server.startProfile();
        const started = performance.now();
        await createAll(c, Array.from({ length: n }, (_, i) => crd(i)));
        await watch.allEstablished(n).catch(async (err: Error) => {
          // Which ones, as the server has them now (the watch may have missed an event, or they are not Established).
          const now = JSON.parse((await c.request('GET', crdsPath)).body.toString('utf8')) as { items: EstablishedCrd[] };
          const not = now.items.filter((item) => !isEstablished(item));
          throw new Error(`${err.message}; the server lists ${now.items.length - not.length} Established, not: ${JSON.stringify(not.slice(0, 3).map((i) => [i.metadata.name, i.status]))}`);
        });
        const allEstablishedMs = performance.now() - started;
        if (profile) await server.stopProfile(profile);
        const establishMaxEventLoopDelayMs = await server.maxEventLoopDelayMs();
        watch.close();
        ctx.log(`crds: all established in ${(allEstablishedMs / 1000).toFixed(1)} s`);

        const v2 = await documentTimes(c, '/openapi/v2');
        const v3Root = await documentTimes(c, '/openapi/v3');
        const v3GroupVersion = await documentTimes(c, `/openapi/v3/apis/${group(0)}/v1`);
        await sleep(1000);
        const heapAfter = await server.heapUsedAfterGc();
        const rssAfter = await rssBytes(server.pid);

        const apiResources = await kubectlApiResources(ctx, url);
        const discovery = await discoveryEtag(c);
        const rebuild = await oneMoreCrd(c, server, n);
        const mib = (b: number) => b / 1024 / 1024;
        return {
          crds: n,
          kindsPerGroup,
          propertiesPerCrd,
          allEstablishedMs,
          establishMaxEventLoopDelayMs,
          memory: {
            rssBeforeMiB: mib(rssBefore),
            rssAfterMiB: mib(rssAfter),
            rssPerCrdMiB: mib(rssAfter - rssBefore) / n,
            heapBeforeMiB: mib(heapBefore),
            heapAfterMiB: mib(heapAfter),
            heapPerCrdMiB: mib(heapAfter - heapBefore) / n,
          },
          apiResources,
          openapi: { v2, v3Root, v3GroupVersion, ...rebuild },
          discovery,
        };
      } finally {
        c.close();
      }
    },
    { execArgv: ['--expose-gc'] },
  );
}

const group = (g: number) => `g${g}.crds.bench.example`;

/** CRD number `i`: kind `Kind<i>` in group `g<i / 10>`, namespaced, one version with ~50 spec properties. */
function crd(i: number, groupName = group(Math.floor(i / kindsPerGroup))): Record<string, unknown> {
  const kind = `Kind${i}`;
  const plural = `kind${i}s`;
  const types = ['string', 'integer', 'boolean', 'number'] as const;
  const properties = Object.fromEntries(
    Array.from({ length: propertiesPerCrd - 2 }, (_, p) => [`field${p}`, { type: types[p % types.length], description: `Field ${p} of ${kind}, as a provider documents its settings.` }]),
  );
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${groupName}` },
    spec: {
      group: groupName,
      scope: 'Namespaced',
      names: { plural, singular: `kind${i}`, kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  };
}

async function createAll(c: HttpsClient, crds: Record<string, unknown>[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < crds.length) {
      const body = crds[next++]!;
      expectStatus(await c.request('POST', crdsPath, body), [201], `create CRD ${(body.metadata as { name: string }).name}`);
    }
  };
  await Promise.all(Array.from({ length: createConcurrency }, worker));
}

/** A watch of the CRDs from `resourceVersion` that counts those whose Established condition is True. */
function establishedWatch(url: string, ctx: BenchContext, resourceVersion: string) {
  const established = new Set<string>();
  let waiter: { n: number; resolve: () => void } | undefined;
  let failed: Error | undefined;
  let partial = '';
  const base = new URL(url);
  const req = https.get(
    {
      hostname: base.hostname,
      port: base.port,
      path: `${crdsPath}?watch=1&resourceVersion=${resourceVersion}&allowWatchBookmarks=false`,
      ca: ctx.caCertPem,
      headers: { authorization: `Bearer ${ctx.token}`, accept: 'application/json' },
      agent: false,
    },
    (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.trim()) continue;
          const e = JSON.parse(line) as { type: string; object: EstablishedCrd };
          if (e.type === 'ERROR') failed = new Error(`CRD watch: ${line.slice(0, 300)}`);
          else if (isEstablished(e.object)) established.add(e.object.metadata.name);
        }
        if (waiter && (failed || established.size >= waiter.n)) waiter.resolve();
      });
    },
  );
  req.on('error', (err) => (failed = err));
  return {
    async allEstablished(n: number): Promise<void> {
      const timer = setTimeout(() => waiter?.resolve(), establishTimeoutMs);
      if (established.size < n && !failed) await new Promise<void>((resolve) => (waiter = { n, resolve }));
      clearTimeout(timer);
      if (failed) throw failed;
      if (established.size < n) throw new Error(`only ${established.size} of ${n} CRDs Established after ${establishTimeoutMs / 1000} s`);
    },
    close: () => req.destroy(),
  };
}

interface EstablishedCrd {
  metadata: { name: string };
  status?: { conditions?: { type: string; status: string }[] };
}

const isEstablished = (crd: EstablishedCrd) => crd.status?.conditions?.some((cond) => cond.type === 'Established' && cond.status === 'True') ?? false;

async function documentTimes(c: HttpsClient, path: string): Promise<DocumentTimes> {
  const timed = async () => {
    const t = performance.now();
    const res = await c.countAs(path, 'application/json');
    expectStatus(res, [200], path);
    return { ms: performance.now() - t, res };
  };
  const first = await timed();
  const cached: number[] = [];
  for (let i = 0; i < 5; i++) cached.push((await timed()).ms);
  const etag = first.res.headers['etag'];
  let notModified = false;
  if (typeof etag === 'string') notModified = (await c.getWithHeaders(path, { 'if-none-match': etag })).status === 304;
  return { firstMs: first.ms, cachedMs: median(cached), bytes: first.res.bytes, notModified };
}

async function kubectlApiResources(ctx: BenchContext, url: string): Promise<CrdsResults['apiResources']> {
  const dir = join(ctx.root, 'kubectl-crds');
  await mkdir(dir, { recursive: true });
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kapi', cluster: { server: url, 'certificate-authority-data': Buffer.from(ctx.caCertPem).toString('base64') } }],
      users: [{ name: 'admin', user: { token: ctx.token } }],
      contexts: [{ name: 'kapi', context: { cluster: 'kapi', user: 'admin' } }],
      'current-context': 'kapi',
    }),
  );
  const run = async () => {
    const t = performance.now();
    const out = await kubectl(['api-resources', `--kubeconfig=${kubeconfig}`, `--cache-dir=${join(dir, 'cache')}`]);
    return { ms: performance.now() - t, lines: out.split('\n').filter(Boolean).length };
  };
  const cold = await run();
  const warm = await run();
  return { coldMs: cold.ms, warmMs: warm.ms, lines: cold.lines };
}

function kubectl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`kubectl ${args.join(' ')}: exit ${code}: ${err.slice(0, 500)}`))));
  });
}

async function discoveryEtag(c: HttpsClient): Promise<CrdsResults['discovery']> {
  const first = await c.getAs('/apis', aggregatedAccept);
  const second = await c.getAs('/apis', aggregatedAccept);
  expectStatus(first, [200], 'aggregated /apis');
  const groups = (JSON.parse(first.body.toString('utf8')) as { items: unknown[] }).items.length;
  return { etagStable: first.headers['etag'] !== undefined && first.headers['etag'] === second.headers['etag'], groups };
}

/** One CRD more, in a group of its own: how long until /openapi/v2 has its paths, and the event loop's longest hold meanwhile. */
async function oneMoreCrd(c: HttpsClient, server: ServerProcess, n: number): Promise<{ oneMoreCrdInV2Ms: number; rebuildMaxEventLoopDelayMs: number }> {
  const extra = crd(n, 'extra.crds.bench.example');
  const path = `/apis/extra.crds.bench.example/v1/namespaces/{namespace}/kind${n}s`;
  await server.maxEventLoopDelayMs();
  const started = performance.now();
  expectStatus(await c.request('POST', crdsPath, extra), [201], 'create one more CRD');
  for (;;) {
    const res = await c.getAs('/openapi/v2', 'application/json');
    expectStatus(res, [200], '/openapi/v2');
    if (res.body.includes(JSON.stringify(path))) break;
    if (performance.now() - started > 60_000) throw new Error(`${path} not in /openapi/v2 after 60 s`);
    await sleep(100);
  }
  return { oneMoreCrdInV2Ms: performance.now() - started, rebuildMaxEventLoopDelayMs: await server.maxEventLoopDelayMs() };
}

/** The process's resident set size (Linux: VmRSS of /proc/PID/status), bytes. */
async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kib) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kib) * 1024;
}


function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
