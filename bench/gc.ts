/**
 * The gc group: what garbage collection of an owner with many dependents takes, and what it costs other writers.
 *
 * For each propagation policy (Background, then Foreground) a fresh kapi process on a fresh data dir gets the widgets
 * CRD and two owner widgets, each with BENCH_GC_DEPENDENTS dependents (widgets with a controller ownerReference to it,
 * blockOwnerDeletion set, as controllers write them). Each collection is timed on a watch of the widgets opened before
 * the owner's DELETE (DeleteOptions with the propagationPolicy): from the DELETE sent until the last dependent's DELETED event arrives (and
 * the owner's: first in the background, last in the foreground).
 *   1. idle: the first owner is collected with nothing else running;
 *   2. under load: the core group's create load (32 connections) runs throughout: a warm-up, then BENCH_SECONDS
 *      without collection, then the second owner is deleted and the load's 201s are counted until its last dependent is
 *      gone, then BENCH_SECONDS without collection again. Creates/s during the collection ÷ creates/s in the two windows
 *      without it (the baseline) is what the collection costs writers.
 */
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { CollectionWatch, ResponseTimes } from './gc-collection.js';
import { expectStatus, httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { startLoad } from './load.js';
import { withServer } from './server-process.js';
import { installWidgetsCrd, waitForWidgetsServed, widget, widgetCreateLoad, widgetsCollectionPath } from './widgets.js';

export type PropagationPolicy = 'Background' | 'Foreground';

export interface CollectionFigures {
  /** The DELETE's status (200: the owner is gone, 202: it waits for its dependents). */
  deleteStatus: number;
  /** From the DELETE sent until the first and the last dependent's DELETED event arrived, ms. */
  firstDependentGoneMs: number;
  lastDependentGoneMs: number;
  /** From the DELETE sent until the owner's DELETED event arrived, ms. */
  ownerGoneMs: number;
  /** Dependents ÷ (DELETE → last dependent gone): the collector's deletes per second. */
  deletesPerSec: number;
}

export interface GcLoadFigures {
  /** The create load's 201s per second without collection: over BENCH_SECONDS before it and as long after it, together. */
  withoutPerSec: number;
  withoutBeforePerSec: number;
  withoutAfterPerSec: number;
  withoutSeconds: number;
  duringPerSec: number;
  duringSeconds: number;
  /** duringPerSec ÷ withoutPerSec. */
  ratio: number;
  /** Answers other than 201 over the whole load (0: no answer), by status. */
  failures: Record<string, number>;
}

export interface GcPolicyFigures {
  policy: PropagationPolicy;
  idle: CollectionFigures;
  underLoad: CollectionFigures;
  load: GcLoadFigures;
}

export interface GcResults {
  dependents: number;
  background: GcPolicyFigures;
  foreground: GcPolicyFigures;
}

const createConcurrency = 32;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

export async function runGarbageCollection(ctx: BenchContext): Promise<GcResults> {
  const background = await runPolicy(ctx, 'Background');
  const foreground = await runPolicy(ctx, 'Foreground');
  return { dependents: ctx.cfg.gcDependents, background, foreground };
}

async function runPolicy(ctx: BenchContext, policy: PropagationPolicy): Promise<GcPolicyFigures> {
  const { cfg, log } = ctx;
  const n = cfg.gcDependents;
  const kapi: KapiServerSettings = { dataDir: join(ctx.root, `data-gc-${policy.toLowerCase()}`), pkiDir: ctx.pkiDir, token: ctx.token };
  await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
  return withServer('./kapi-server.js', kapi, async (url) => {
    const c = httpsClient(url, ctx.caCertPem, ctx.token, createConcurrency);
    try {
      await installWidgetsCrd(c);
      await waitForWidgetsServed(c);
      log(`gc ${policy}: 2 owners with ${n} dependents each`);
      const idleDependents = await createOwnerWithDependents(c, 'gc-idle', n);
      const loadedDependents = await createOwnerWithDependents(c, 'gc-loaded', n);

      log(`gc ${policy}: collection of ${n} dependents, idle`);
      const { figures: idle } = await collect(ctx, url, c, policy, 'gc-idle', idleDependents);

      log(`gc ${policy}: create load, ${cfg.warmupSeconds} s warm-up + ${cfg.seconds} s without collection, during the collection of ${n} dependents, ${cfg.seconds} s without`);
      const created = new ResponseTimes();
      const failures: Record<string, number> = {};
      const load = startLoad(widgetCreateLoad(`kapi create during gc (${policy})`, url, ctx.token), cfg, 'measure', cfg.warmupSeconds + 2 * cfg.seconds + collectionTimeoutMs(n) / 1000 + 60);
      // (stopped once the window after the collection is over; the duration only bounds it)
      load.instance.on('response', (_client, status) => {
        if (status === 201) created.add(nowMs());
        else failures[String(status)] = (failures[String(status)] ?? 0) + 1;
      });
      load.instance.on('reqError', () => (failures['0'] = (failures['0'] ?? 0) + 1));
      try {
        await sleep(cfg.warmupSeconds * 1000);
        const withoutStart = nowMs();
        await sleep(cfg.seconds * 1000);
        const withoutEnd = nowMs();
        const { figures: underLoad, sentAt } = await collect(ctx, url, c, policy, 'gc-loaded', loadedDependents);
        const duringEnd = sentAt + underLoad.lastDependentGoneMs;
        // The same window again after the collection, so a drift of the load over time (warming up, a busy machine)
        // does not pass for the collection's cost.
        const afterStart = nowMs();
        await sleep(cfg.seconds * 1000);
        const afterEnd = nowMs();
        const withoutSeconds = (withoutEnd - withoutStart + afterEnd - afterStart) / 1000;
        const withoutPerSec = (created.count(withoutStart, withoutEnd) + created.count(afterStart, afterEnd)) / withoutSeconds;
        const duringPerSec = created.ratePerSecond(sentAt, duringEnd);
        return {
          policy,
          idle,
          underLoad,
          load: {
            withoutPerSec,
            withoutBeforePerSec: created.ratePerSecond(withoutStart, withoutEnd),
            withoutAfterPerSec: created.ratePerSecond(afterStart, afterEnd),
            withoutSeconds,
            duringPerSec,
            duringSeconds: (duringEnd - sentAt) / 1000,
            ratio: duringPerSec / withoutPerSec,
            failures,
          },
        };
      } finally {
        load.instance.stop();
        await load.result;
      }
    } finally {
      c.close();
    }
  });
}

/** Creates widget `owner` and `n` widgets owned by it (`<owner>-<i>`), `createConcurrency` at a time; their names. */
async function createOwnerWithDependents(c: HttpsClient, owner: string, n: number): Promise<string[]> {
  const res = await c.request('POST', widgetsCollectionPath, widget(owner));
  expectStatus(res, [201], `create widget ${owner}`);
  const uid = (JSON.parse(res.body.toString('utf8')) as { metadata: { uid: string } }).metadata.uid;
  const ownerReferences = [{ apiVersion: 'example.com/v1', kind: 'Widget', name: owner, uid, controller: true, blockOwnerDeletion: true }];
  const names = Array.from({ length: n }, (_, i) => `${owner}-${i}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: createConcurrency }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const body = widget(name) as { metadata: Record<string, unknown> };
        body.metadata['ownerReferences'] = ownerReferences;
        expectStatus(await c.request('POST', widgetsCollectionPath, body), [201], `create widget ${name}`);
      }
    }),
  );
  return names;
}

/**
 * Deletes `owner` with `policy` and waits on a watch (opened first, from a list's resourceVersion) until the owner and
 * every one of `dependents` have been seen DELETED; with the time the DELETE went out.
 */
async function collect(
  ctx: BenchContext,
  url: string,
  c: HttpsClient,
  policy: PropagationPolicy,
  owner: string,
  dependents: string[],
): Promise<{ figures: CollectionFigures; sentAt: number }> {
  const list = await c.request('GET', `${widgetsCollectionPath}?limit=1`);
  expectStatus(list, [200], 'list widgets');
  const rv = (JSON.parse(list.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const tracker = new CollectionWatch(owner, dependents);
  const timeoutMs = collectionTimeoutMs(dependents.length);
  const watch = await openWatch(url, ctx, `${widgetsCollectionPath}?watch=1&resourceVersion=${encodeURIComponent(rv)}`);
  let timer: NodeJS.Timeout | undefined;
  try {
    const done = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => {
        const r = tracker.result;
        reject(new Error(`gc ${policy}: after ${timeoutMs} ms ${r.gone} of ${r.dependents} dependents of ${owner} gone, owner ${r.ownerGoneAt === undefined ? 'not ' : ''}gone`));
      }, timeoutMs);
      const settle = (err?: Error) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      watch.res.on('data', (chunk: Buffer) => {
        try {
          tracker.feed(chunk.toString('utf8'), nowMs());
        } catch (err) {
          settle(err as Error);
          return;
        }
        if (tracker.done) settle();
      });
      watch.res.on('end', () => settle(new Error(`gc ${policy}: the server ended the watch before ${owner}'s dependents were gone`)));
      watch.res.on('error', settle);
    });
    done.catch(() => undefined); // awaited below; a DELETE that fails first must not leave it unhandled
    const sentAt = nowMs();
    const del = await c.request('DELETE', `${widgetsCollectionPath}/${owner}`, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: policy });
    expectStatus(del, [200, 202], `delete widget ${owner} (${policy})`);
    await done;
    const r = tracker.result;
    const last = r.lastDependentGoneAt! - sentAt;
    const figures: CollectionFigures = {
      deleteStatus: del.status,
      firstDependentGoneMs: r.firstDependentGoneAt! - sentAt,
      lastDependentGoneMs: last,
      ownerGoneMs: r.ownerGoneAt! - sentAt,
      deletesPerSec: dependents.length / (last / 1000),
    };
    return { figures, sentAt };
  } finally {
    clearTimeout(timer);
    watch.close();
  }
}

/** A watch over its own TLS connection; resolves once the server has answered 200. */
function openWatch(url: string, ctx: BenchContext, path: string): Promise<{ res: IncomingMessage; close(): void }> {
  const base = new URL(url);
  return new Promise((resolve, reject) => {
    const req = https.get(
      { hostname: base.hostname, port: base.port, path, ca: ctx.caCertPem, agent: false, headers: { authorization: `Bearer ${ctx.token}`, accept: 'application/json' } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`watch ${path}: HTTP ${res.statusCode}`));
          return;
        }
        resolve({ res, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
  });
}

/** How long a collection of `n` dependents may take before the run fails. */
const collectionTimeoutMs = (n: number) => Math.max(120_000, 100 * n);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
