/**
 * Large list: how long does kapi take to list 10,000 widgets of ~1 KiB each, and how much memory does it keep per
 * object?
 *
 * One fresh kapi process (SQLite storage, `--expose-gc`, a fresh data dir): install the widgets CRD; warm the create
 * path with one widget, created and deleted again; GET /openapi/v2 (so the Swagger document, merged in the background
 * after the CRD, is not counted per widget); heap in use after a full GC with 0 widgets; create the widgets
 * (a ~1 KiB annotation of filler each, 32 POSTs in flight); heap after GC again — the difference per widget is what the
 * server keeps per object: the watch cache's copy, the cache's event history, what the storage engine keeps of it, and
 * whatever else holds on to it. Then, over one keep-alive connection from this process, the time of a whole list
 * (request sent → last byte received, not parsed; every answer is checked afterwards) for:
 *   - `GET …/widgets` (most recent, consistent read),
 *   - `GET …/widgets?resourceVersion=0` (any version: may come from the watch cache),
 *   - `GET …/widgets?limit=500` and then each `continue` until there is none (total time for all pages; the continue
 *     token is picked out of the page's head, not by parsing the page);
 * each `warmupRuns` times unmeasured, then `runs` times; the median is reported, with the server's CPU time per list.
 * The baseline is a bare koa process answering the exact bytes of kapi's full list: the floor of sending them over
 * TLS with Node.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BaselineServerSettings } from './baseline-server.js';
import type { BenchContext } from './context.js';
import { expectStatus, httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { withServer, type ServerProbe } from './server-process.js';
import { installWidgetsCrd, waitForWidgetsServed, widget, widgetsCollectionPath } from './widgets.js';
import { median } from './median.js';

export interface ListTiming {
  title: string;
  /** Measured lists; `medianMs` etc. are over them. */
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median server CPU time per list (all pages), ms. */
  serverCpuMedianMs: number;
  /** Response bytes of one list (all pages together when paged). */
  bytes: number;
  /** Pages per list (1 unless paged). */
  pages: number;
  /** Items of the last measured list (all pages). */
  items: number;
  /** What was wrong with any answer (wrong status, wrong item count, a page without continue…); empty when all were right. */
  problems: string[];
}

export interface ListLargeResults {
  objects: number;
  /** Average `JSON.stringify` length of a widget as GET answers it. */
  objectJsonBytes: number;
  /** Filling the collection: widgets created per second with 32 POSTs in flight (informational). */
  createsPerSec: number;
  baseline: ListTiming;
  latest: ListTiming;
  rv0: ListTiming;
  paged: ListTiming;
  memory: {
    heapEmptyBytes: number;
    heapFullBytes: number;
    /** (heapFull − heapEmpty) ÷ objects. */
    bytesPerObject: number;
    /** bytesPerObject ÷ objectJsonBytes. */
    overJson: number;
  };
  /** Names of the server CPU profiles taken (BENCH_PROFILE=1) → lists in their window. */
  profiles: Record<string, number>;
}

const fillerAnnotation = 'bench.example.com/filler';
const objectName = (i: number) => `big-${String(i).padStart(5, '0')}`;

export async function runListLarge(ctx: BenchContext): Promise<ListLargeResults> {
  const { cfg, log } = ctx;
  const n = cfg.list.objects;
  const kapi: KapiServerSettings = { dataDir: join(ctx.root, 'data-list'), pkiDir: ctx.pkiDir, token: ctx.token };
  await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
  const profiles: Record<string, number> = {};

  log(`large list: ${n} widgets of ~${cfg.list.objectBytes} bytes in a fresh kapi process (--expose-gc), ${kapi.dataDir}`);
  const kapiPart = await withServer(
    './kapi-server.js',
    kapi,
    async (url, server) => {
      const c = httpsClient(url, ctx.caCertPem, ctx.token);
      await installWidgetsCrd(c);
      await waitForWidgetsServed(c);
      const fillerLength = await calibrateFiller(c, cfg.list.objectBytes);
      await settleOpenApi(c);
      const heapEmptyBytes = await server.heapUsedAfterGc();

      const created = Date.now();
      await createAll(c, n, cfg.list.createConcurrency, (i) => bigWidget(objectName(i), fillerLength));
      const createsPerSec = n / ((Date.now() - created) / 1000);
      const heapFullBytes = await server.heapUsedAfterGc();
      const objectJsonBytes = await averageJsonSize(c, n);
      log(`  ${n} widgets created (${createsPerSec.toFixed(0)}/s), ${objectJsonBytes.toFixed(0)} bytes of JSON each; timing lists`);

      const timer = listTimer(url, ctx.caCertPem, ctx.token, server);
      try {
        const runs = { warmup: cfg.list.warmupRuns, runs: cfg.list.runs };
        const profilePath = ctx.profilePath('kapi-list-large');
        const fullList = async () => timer.full(widgetsCollectionPath);
        // Warm every variant first, so the profile (if any) covers only measured lists.
        for (let i = 0; i < runs.warmup; i++) {
          await fullList();
          await timer.full(`${widgetsCollectionPath}?resourceVersion=0`);
          await timer.paged(cfg.list.pageLimit);
        }
        if (profilePath) await server.startProfile();
        const latest = await timed('kapi list (latest)', runs.runs, fullList, n);
        const rv0 = await timed('kapi list (rv=0)', runs.runs, () => timer.full(`${widgetsCollectionPath}?resourceVersion=0`), n);
        const paged = await timed(`kapi list (limit=${cfg.list.pageLimit})`, runs.runs, () => timer.paged(cfg.list.pageLimit), n);
        if (profilePath) {
          await server.stopProfile(profilePath);
          profiles['kapi-list-large'] = 3 * runs.runs;
        }
        const sample = await timer.full(widgetsCollectionPath);
        return {
          createsPerSec,
          objectJsonBytes,
          heapEmptyBytes,
          heapFullBytes,
          latest: latest.timing,
          rv0: rv0.timing,
          paged: paged.timing,
          listBody: sample.body,
          contentType: sample.contentType,
        };
      } finally {
        timer.close();
      }
    },
    { execArgv: ['--expose-gc'] },
  );

  log(`large list baseline: bare koa serving the ${kapiPart.listBody.length} bytes of kapi's list`);
  const bodyFile = join(ctx.root, 'list-large-body.json');
  await writeFile(bodyFile, kapiPart.listBody);
  const baselineSettings: BaselineServerSettings = { pkiDir: ctx.pkiDir, path: widgetsCollectionPath, bodyFile, contentType: kapiPart.contentType };
  const baseline = await withServer('./baseline-server.js', baselineSettings, async (url, server) => {
    const timer = listTimer(url, ctx.caCertPem, ctx.token, server);
    try {
      for (let i = 0; i < cfg.list.warmupRuns; i++) await timer.full(widgetsCollectionPath);
      return (await timed('baseline list (koa)', cfg.list.runs, () => timer.full(widgetsCollectionPath), n)).timing;
    } finally {
      timer.close();
    }
  });

  const bytesPerObject = (kapiPart.heapFullBytes - kapiPart.heapEmptyBytes) / n;
  return {
    objects: n,
    objectJsonBytes: kapiPart.objectJsonBytes,
    createsPerSec: kapiPart.createsPerSec,
    baseline,
    latest: kapiPart.latest,
    rv0: kapiPart.rv0,
    paged: kapiPart.paged,
    memory: {
      heapEmptyBytes: kapiPart.heapEmptyBytes,
      heapFullBytes: kapiPart.heapFullBytes,
      bytesPerObject,
      overJson: bytesPerObject / kapiPart.objectJsonBytes,
    },
    profiles,
  };
}

function bigWidget(name: string, fillerLength: number): Record<string, unknown> {
  const w = widget(name) as { metadata: Record<string, unknown> };
  w.metadata['annotations'] = { [fillerAnnotation]: 'x'.repeat(fillerLength) };
  return w;
}

/**
 * The filler length that makes a widget's JSON (as the server answers it, with whatever metadata it adds)
 * `objectBytes` long: create a probe with a known filler, measure, delete it again. The probe also warms the create
 * path, so its first-use allocations are in the empty heap and not counted per object.
 */
async function calibrateFiller(c: HttpsClient, objectBytes: number): Promise<number> {
  const probeFiller = 100;
  const name = objectName(99_999).replace('big-', 'bgp-'); // as long as the real names
  const res = await c.request('POST', widgetsCollectionPath, bigWidget(name, probeFiller));
  expectStatus(res, [201], 'create probe widget');
  const size = JSON.stringify(JSON.parse(res.body.toString('utf8'))).length;
  const del = await c.request('DELETE', `${widgetsCollectionPath}/${name}`);
  expectStatus(del, [200, 202], 'delete probe widget');
  return Math.max(0, probeFiller + objectBytes - size);
}

/**
 * The server merges its Swagger document in the background once the CRDs have been quiet for a while
 * (core/openapi/openapi-cache.ts): asking for it now puts that one-off document in the empty heap, where it belongs,
 * rather than in the heap measured with the widgets (at 10,000 widgets it was ~0.2× of the JSON per object).
 */
async function settleOpenApi(c: HttpsClient): Promise<void> {
  expectStatus(await c.request('GET', '/openapi/v2'), [200], 'get /openapi/v2');
}

/** POSTs widgets 0…n-1 with `concurrency` requests in flight; anything but 201 stops the benchmark. */
async function createAll(c: HttpsClient, n: number, concurrency: number, body: (i: number) => unknown): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const res = await c.request('POST', widgetsCollectionPath, body(i));
      expectStatus(res, [201], `create widget ${i}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

/** Average JSON length of 20 widgets spread over the collection, as GET answers them. */
async function averageJsonSize(c: HttpsClient, n: number): Promise<number> {
  const samples = Math.min(20, n);
  let total = 0;
  for (let k = 0; k < samples; k++) {
    const res = await c.request('GET', `${widgetsCollectionPath}/${objectName(Math.floor((k * n) / samples))}`);
    expectStatus(res, [200], 'get widget');
    total += JSON.stringify(JSON.parse(res.body.toString('utf8'))).length;
  }
  return total / samples;
}

interface OneList {
  ms: number;
  serverCpuMs: number;
  bytes: number;
  pages: number;
  items: number;
  problems: string[];
  body: Buffer;
  contentType: string;
}

/** Lists over one keep-alive TLS connection, timing each from request to last byte. */
function listTimer(url: string, caPem: string, token: string, server: ServerProbe) {
  const client = httpsClient(url, caPem, token, 1);
  const get = async (path: string) => {
    const res = await client.request('GET', path);
    return { status: res.status, body: res.body, contentType: String(res.headers['content-type'] ?? '') };
  };
  const itemsOf = (body: Buffer): number => {
    const items = (JSON.parse(body.toString('utf8')) as { items?: unknown[] }).items;
    return Array.isArray(items) ? items.length : -1;
  };
  return {
    async full(path: string): Promise<OneList> {
      const cpu0 = await server.cpuMicros();
      const t0 = performance.now();
      const res = await get(path);
      const ms = performance.now() - t0;
      const serverCpuMs = ((await server.cpuMicros()) - cpu0) / 1000;
      const problems = res.status === 200 ? [] : [`HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`];
      const items = res.status === 200 ? itemsOf(res.body) : 0;
      return { ms, serverCpuMs, bytes: res.body.length, pages: 1, items, problems, body: res.body, contentType: res.contentType };
    },
    async paged(limit: number): Promise<OneList> {
      const pages: Buffer[] = [];
      const problems: string[] = [];
      const cpu0 = await server.cpuMicros();
      const t0 = performance.now();
      let token = '';
      do {
        const res = await get(`${widgetsCollectionPath}?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
        if (res.status !== 200) {
          problems.push(`page ${pages.length + 1}: HTTP ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
          break;
        }
        pages.push(res.body);
        // The list's metadata (with `continue`) precedes its items: no need to parse the page to find it.
        token = /"metadata":\{[^{}]*?"continue":"([^"]*)"/.exec(res.body.subarray(0, 2048).toString('utf8'))?.[1] ?? '';
        if (pages.length > 10_000) {
          problems.push('more than 10,000 pages: continue never ends');
          break;
        }
      } while (token);
      const ms = performance.now() - t0;
      const serverCpuMs = ((await server.cpuMicros()) - cpu0) / 1000;
      let items = 0;
      pages.forEach((p, i) => {
        const k = itemsOf(p);
        if (k > limit) problems.push(`page ${i + 1} has ${k} items, more than limit=${limit}`);
        items += k;
      });
      const bytes = pages.reduce((s, p) => s + p.length, 0);
      return { ms, serverCpuMs, bytes, pages: pages.length, items, problems, body: pages[0] ?? Buffer.alloc(0), contentType: '' };
    },
    close: () => client.close(),
  };
}

/** `runs` lists, reduced to median/min/max; item counts other than `expectedItems` are problems. */
async function timed(title: string, runs: number, list: () => Promise<OneList>, expectedItems: number): Promise<{ timing: ListTiming }> {
  const all: OneList[] = [];
  for (let i = 0; i < runs; i++) all.push(await list());
  const problems = new Set<string>();
  for (const l of all) {
    for (const p of l.problems) problems.add(p);
    if (l.items !== expectedItems) problems.add(`${l.items} items instead of ${expectedItems}`);
  }
  const last = all[all.length - 1]!;
  const ms = all.map((l) => l.ms).sort((a, b) => a - b);
  return {
    timing: {
      title,
      runs,
      medianMs: median(ms),
      minMs: ms[0]!,
      maxMs: ms[ms.length - 1]!,
      serverCpuMedianMs: median(all.map((l) => l.serverCpuMs).sort((a, b) => a - b)),
      bytes: last.bytes,
      pages: last.pages,
      items: last.items,
      problems: [...problems],
    },
  };
}

