/**
 * Admission's cost: durable creates of widgets by a kapi server without admission configuration, against the same
 * server with each variant (bench/admission-variants.ts): trivial in-process plugins, ValidatingAdmissionPolicies, a
 * local HTTPS webhook. Each variant gets a fresh data dir set up alike (the widgets CRD, then the variant's own
 * objects) by the server process that is then measured twice: under load (`connections`, creates/s) and one create
 * at a time (per-request latency, which is what a webhook call adds to). Only 201s count.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { httpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { measure, type Figures } from './load.js';
import { withServer } from './server-process.js';
import { installWidgetsCrd, waitForWidgetsServed, widget, widgetsCollectionPath } from './widgets.js';
import type { AdmissionVariant } from './admission-variant.js';
import { admissionVariants } from './admission-variants.js';
import { sequentialLatency, type SequentialLatency } from './sequential-latency.js';

export interface AdmissionRow {
  key: string;
  title: string;
  /** Creates under load. */
  load: Figures;
  /** Creates one at a time, over one connection. */
  single: SequentialLatency;
}

export interface AdmissionResults {
  none: AdmissionRow;
  variants: (AdmissionRow & {
    judgedByLatency: boolean;
    /** Creates/s with the variant ÷ creates/s without. */
    overNone: number;
    /** Share of create throughput the variant costs: 1 - overNone. */
    cost: number;
    /** p50 latency of creates one at a time, minus the same without admission, ms. */
    addedP50Ms: number;
  })[];
  profiles: Record<string, number>;
}

const sequentialCreates = 2000;
const sequentialWarmup = 200;

export async function runAdmissionThroughput(ctx: BenchContext): Promise<AdmissionResults> {
  const { cfg, log } = ctx;
  const profiles: Record<string, number> = {};
  const headers = { authorization: `Bearer ${ctx.token}`, accept: 'application/json', 'content-type': 'application/json' };

  const run = async (variant: AdmissionVariant): Promise<AdmissionRow> => {
    const kapi: KapiServerSettings = {
      dataDir: join(ctx.root, `data-admission-${variant.key}`),
      pkiDir: ctx.pkiDir,
      token: ctx.token,
      admissionPlugins: variant.admissionPlugins ?? 0,
    };
    await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
    const extra = await variant.start?.(ctx);
    try {
      return await withServer('./kapi-server.js', kapi, async (url, server) => {
        const client = httpsClient(url, ctx.caCertPem, ctx.token);
        await installWidgetsCrd(client);
        await waitForWidgetsServed(client);
        await extra?.setup(client);
        log(`kapi create widgets, ${variant.title}`);
        const name = `kapi-create-admission-${variant.key}`;
        const load = await measure(
          {
            title: `kapi create, ${variant.title}`,
            url,
            okStatus: 201,
            method: 'POST',
            path: widgetsCollectionPath,
            headers,
            body: (phase, seq) => JSON.stringify(widget(`bench-${phase}-${seq}`)),
          },
          cfg,
          server,
          ctx.profilePath(name),
        );
        profiles[name] = load.total;
        const one = httpsClient(url, ctx.caCertPem, ctx.token, 1);
        const create = (seq: number) => ({ method: 'POST', path: widgetsCollectionPath, body: widget(`bench-single-${seq}`), okStatus: 201 });
        const single = await sequentialLatency(one, create, sequentialCreates, sequentialWarmup).finally(() => one.close());
        return { key: variant.key, title: variant.title, load, single };
      });
    } finally {
      await extra?.stop();
    }
  };

  const none = await run({ key: 'none', title: 'no admission configuration' });
  const variants: AdmissionResults['variants'] = [];
  for (const variant of admissionVariants) {
    const row = await run(variant);
    const overNone = row.load.reqPerSec / none.load.reqPerSec;
    variants.push({
      ...row,
      judgedByLatency: variant.judgedByLatency ?? false,
      overNone,
      cost: 1 - overNone,
      addedP50Ms: row.single.latencyMs.p50 - none.single.latencyMs.p50,
    });
  }
  return { none, variants, profiles };
}
