/**
 * Admission plugins' cost: durable creates of widgets by a kapi server without admission plugins of its own, against
 * the same server with 5 trivial in-process plugins (bench/kapi-server.ts `admissionPlugins`: each matches widgets on
 * CREATE, reads the object in `admit` and in `validate`). Each variant gets a fresh data dir set up alike (the widgets
 * CRD) in a throw-away process, then is measured in a fresh process; only 201s count.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { httpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { measure, type Figures } from './load.js';
import { withServer } from './server-process.js';
import { installWidgetsCrd, waitForWidgetsServed, widget, widgetsCollectionPath } from './widgets.js';

export interface AdmissionResults {
  plugins: number;
  none: Figures;
  withPlugins: Figures;
  /** Creates/s with the plugins ÷ creates/s without. */
  pluginsOverNone: number;
  /** Share of create throughput the plugins cost: 1 - pluginsOverNone. */
  pluginsCost: number;
  profiles: Record<string, number>;
}

const pluginCount = 5;

export async function runAdmissionThroughput(ctx: BenchContext): Promise<AdmissionResults> {
  const { cfg, log } = ctx;
  const profiles: Record<string, number> = {};
  const headers = { authorization: `Bearer ${ctx.token}`, accept: 'application/json', 'content-type': 'application/json' };

  const run = async (variant: string, admissionPlugins: number): Promise<Figures> => {
    const kapi: KapiServerSettings = { dataDir: join(ctx.root, `data-admission-${variant}`), pkiDir: ctx.pkiDir, token: ctx.token, admissionPlugins };
    await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
    log(`set-up: widgets CRD in ${kapi.dataDir}`);
    await withServer('./kapi-server.js', kapi, async (url) => {
      const c = httpsClient(url, ctx.caCertPem, ctx.token);
      await installWidgetsCrd(c);
      await waitForWidgetsServed(c);
    });
    log(`kapi create widgets, ${admissionPlugins} admission plugins`);
    const name = `kapi-create-admission-${variant}`;
    const figures = await withServer('./kapi-server.js', kapi, async (url, server) => {
      await waitForWidgetsServed(httpsClient(url, ctx.caCertPem, ctx.token));
      return measure(
        {
          title: `kapi create, ${admissionPlugins} admission plugins`,
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
    });
    profiles[name] = figures.total;
    return figures;
  };

  const none = await run('none', 0);
  const withPlugins = await run('plugins', pluginCount);
  const pluginsOverNone = withPlugins.reqPerSec / none.reqPerSec;
  return { plugins: pluginCount, none, withPlugins, pluginsOverNone, pluginsCost: 1 - pluginsOverNone, profiles };
}
