/**
 * Exhaustion: what one hostile or careless client costs everyone else. Each measurement runs in a fresh kapi process
 * (SQLite storage) of its own:
 *   - a large list as YAML, JSON and CBOR (BENCH_EXHAUSTION_OBJECTS widgets, default 50,000): the list's time, and the
 *     longest a `/readyz` probe (sent every 10 ms on its own connection while the list is served) waits — how long
 *     the list holds the event loop; the baseline is the probe on the idle server;
 *   - a widget with 16,000 unknown fields under fieldValidation=Warn: answer time and Warning header bytes, against a
 *     valid body of the same size;
 *   - a ValidatingAdmissionPolicy whose matchConstraints list 100,000 empty resources: answer time and Status bytes;
 *   - 200 merge patches of one widget with a 2.9 MiB string: the server's RSS before and after;
 *   - 200 TLS connections that never send a byte: how many the server has closed 34 s later (kube's 32 s).
 */
import { connect } from 'node:tls';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchContext } from './context.js';
import { expectStatus, httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { withServer } from './server-process.js';
import { installWidgetsCrd, waitForWidgetsServed, widget, widgetsCollectionPath } from './widgets.js';

export interface ListHold {
  format: 'YAML' | 'JSON' | 'CBOR';
  listMs: number;
  bytes: number;
  /** The longest /readyz wait while the list was served, ms. */
  maxProbeMs: number;
}

export interface ExhaustionResults {
  objects: number;
  /** The longest /readyz wait on the idle server (baseline), ms. */
  idleProbeMs: number;
  lists: ListHold[];
  warnings: { unknownFields: number; bodyBytes: number; ms: number; headerBytes: number; status: number; baselineMs: number };
  validationError: { items: number; bodyBytes: number; ms: number; statusBytes: number; status: number };
  bigWrites: { writes: number; valueBytes: number; rssBeforeMiB: number; rssAfterMiB: number };
  idleTls: { connections: number; waitedMs: number; closed: number };
}

const probeEveryMs = 10;

export async function runExhaustion(ctx: BenchContext): Promise<ExhaustionResults> {
  const objects = Number(process.env['BENCH_EXHAUSTION_OBJECTS'] ?? 50_000);
  const fresh = async (name: string): Promise<KapiServerSettings> => {
    const dataDir = join(ctx.root, `exhaustion-${name}`);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    return { dataDir, pkiDir: ctx.pkiDir, token: ctx.token };
  };
  const client = (url: string) => httpsClient(url, ctx.caCertPem, ctx.token, 32);

  ctx.log(`exhaustion: a list of ${objects} widgets as YAML, JSON and CBOR, /readyz probed every ${probeEveryMs} ms`);
  const listed = await withServer('./kapi-server.js', await fresh('list'), async (url) => {
    const c = client(url);
    await installWidgetsCrd(c);
    await waitForWidgetsServed(c);
    await fill(c, objects);
    const idleProbeMs = await probeWhile(url, ctx, () => new Promise((resolve) => setTimeout(resolve, 1000)));
    const lists: ListHold[] = [];
    for (const [format, accept] of [['YAML', 'application/yaml'], ['JSON', 'application/json'], ['CBOR', 'application/cbor']] as const) {
      let bytes = 0;
      let listMs = 0;
      const maxProbeMs = await probeWhile(url, ctx, async () => {
        const started = performance.now();
        const res = await c.countAs(widgetsCollectionPath, accept);
        listMs = performance.now() - started;
        expectStatus(res, [200], `${format} list`);
        bytes = res.bytes;
      });
      lists.push({ format, listMs, bytes, maxProbeMs });
    }
    c.close();
    return { idleProbeMs, lists };
  });

  ctx.log('exhaustion: 16,000 unknown fields under fieldValidation=Warn');
  const warnings = await withServer('./kapi-server.js', await fresh('warnings'), async (url) => {
    const c = client(url);
    await installWidgetsCrd(c);
    await waitForWidgetsServed(c);
    const unknownFields = 16_000;
    const spec: Record<string, unknown> = { color: 'red' };
    for (let i = 0; i < unknownFields; i++) spec[`unknown${i}`] = i;
    const body = JSON.stringify({ ...widget('unknowns'), spec });
    const padded = JSON.stringify({ ...widget('padded'), spec: { color: 'x'.repeat(body.length - 100) } });
    const time = async (text: string) => {
      const started = performance.now();
      const res = await c.send('POST', `${widgetsCollectionPath}?fieldValidation=Warn`, 'application/json', text);
      return { res, ms: performance.now() - started };
    };
    const baseline = await time(padded);
    const measured = await time(body);
    const warning = measured.res.headers['warning'];
    const headerBytes = (Array.isArray(warning) ? warning : warning ? [warning] : []).reduce((n, w) => n + Buffer.byteLength(w), 0);
    c.close();
    return { unknownFields, bodyBytes: body.length, ms: measured.ms, headerBytes, status: measured.res.status, baselineMs: baseline.ms };
  });

  ctx.log('exhaustion: a ValidatingAdmissionPolicy with 100,000 empty resources');
  const validationError = await withServer('./kapi-server.js', await fresh('validation'), async (url) => {
    const c = client(url);
    const items = 100_000;
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'huge' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: Array.from({ length: items }, () => '') }] },
        validations: [{ expression: 'true' }],
      },
    };
    const body = JSON.stringify(policy);
    const started = performance.now();
    const res = await c.send('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', 'application/json', body);
    const ms = performance.now() - started;
    c.close();
    return { items, bodyBytes: body.length, ms, statusBytes: res.body.length, status: res.status };
  });

  ctx.log('exhaustion: 200 merge patches of a 2.9 MiB string');
  const bigWrites = await withServer('./kapi-server.js', await fresh('writes'), async (url, server) => {
    const c = client(url);
    await installWidgetsCrd(c);
    await waitForWidgetsServed(c);
    expectStatus(await c.request('POST', widgetsCollectionPath, widget('big')), [201], 'create big');
    const rssMiB = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;
    const rssBeforeMiB = rssMiB();
    const writes = 200;
    const valueBytes = Math.floor(2.9 * 1024 * 1024);
    for (let i = 0; i < writes; i++) {
      const patch = JSON.stringify({ spec: { color: String.fromCharCode(97 + (i % 26)).repeat(valueBytes) } });
      expectStatus(await c.send('PATCH', `${widgetsCollectionPath}/big`, 'application/merge-patch+json', patch), [200], `patch ${i}`);
    }
    c.close();
    return { writes, valueBytes, rssBeforeMiB, rssAfterMiB: rssMiB() };
  });

  ctx.log('exhaustion: 200 TLS connections that send nothing, for 34 s');
  const idleTls = await withServer('./kapi-server.js', await fresh('idle'), async (url) => {
    const { hostname, port } = new URL(url);
    const connections = 200;
    let closed = 0;
    const sockets = Array.from({ length: connections }, () => {
      const s = connect({ host: hostname, port: Number(port), ca: ctx.caCertPem });
      s.on('error', () => undefined);
      s.resume(); // read what the server sends (its 408) so that its close reaches us
      s.once('close', () => closed++);
      return s;
    });
    const waitedMs = 34_000;
    await new Promise((resolve) => setTimeout(resolve, waitedMs));
    for (const s of sockets) s.destroy();
    return { connections, waitedMs, closed };
  });

  return { objects, ...listed, warnings, validationError, bigWrites, idleTls };
}

/** Creates `count` widgets, 32 in flight. */
async function fill(c: HttpsClient, count: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      expectStatus(await c.request('POST', widgetsCollectionPath, widget(`w${i}`)), [201], `create w${i}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, lane));
}

/** Runs `work` while probing /readyz every 10 ms on a connection of its own; the longest probe wait, ms. */
async function probeWhile(url: string, ctx: BenchContext, work: () => Promise<void>): Promise<number> {
  const probe = httpsClient(url, ctx.caCertPem, ctx.token, 1);
  let done = false;
  let longest = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      expectStatus(await probe.request('GET', '/readyz'), [200], '/readyz');
      longest = Math.max(longest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, probeEveryMs));
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await probing;
    probe.close();
  }
  return longest;
}
