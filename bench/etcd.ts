/**
 * kapi on etcd against etcd itself: creates and GETs of widgets by a kapi server on a local single-member etcd (data on
 * the temp dir's disk, as SQLite's), against puts and gets of the same bytes straight through the etcd3 client at the
 * same concurrency, in the same run. A put writes what a create stores (the stored JSON of w1) under a fresh key; a
 * get reads w1's key. kapi's create is one etcd transaction, its GET one etcd read.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { startEtcd } from '../tests/helpers/etcd-process.js';
import type { BenchContext } from './context.js';
import { rawEtcdClient, rawLoad, type RawFigures } from './etcd-raw-load.js';
import { httpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { measure, type Figures, type LoadSpec } from './load.js';
import { processCpuMicros } from './process-cpu.js';
import { withServer, type ServerProbe, type ServerProcess } from './server-process.js';
import { createWidgetW1, installWidgetsCrd, waitForWidgetsServed, widget, widgetPath, widgetsCollectionPath } from './widgets.js';

export interface EtcdResults {
  /** Bytes of the value every put writes (w1 as kapi stores it). */
  valueBytes: number;
  rawPut: RawFigures;
  rawGet: RawFigures;
  create: Figures;
  get: Figures;
  /** etcd's CPU during each measurement, in shares of one core. */
  etcdCoreShare: { rawPut?: number; rawGet?: number; create?: number; get?: number };
  ratios: {
    /** kapi creates/s ÷ etcd3 puts/s. */
    createOverPut: number;
    /** kapi GETs/s ÷ etcd3 gets/s. */
    getOverGet: number;
  };
  profiles: Record<string, number>;
}

const w1Key = Buffer.from('/registry/example.com/widgets/default/w1');

export async function runEtcdThroughput(ctx: BenchContext): Promise<EtcdResults> {
  const { cfg, log } = ctx;
  const etcd = await startEtcd({ dataDir: ctx.root });
  const pid = etcd.members[0]!.pid;
  const raw = rawEtcdClient(etcd.endpoints);
  try {
    const kapi: KapiServerSettings = {
      dataDir: join(ctx.root, 'data-etcd'),
      pkiDir: ctx.pkiDir,
      token: ctx.token,
      etcd: { endpoints: etcd.endpoints },
    };
    await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
    log(`set-up: etcd ${etcd.endpoints[0]} (data in ${ctx.root}), CRD widgets.example.com and widget w1`);
    await withServer('./kapi-server.js', kapi, async (url) => {
      const c = httpsClient(url, ctx.caCertPem, ctx.token);
      await installWidgetsCrd(c);
      await waitForWidgetsServed(c);
      await createWidgetW1(c);
      c.close();
    });
    const value = (await raw.kv.range({ key: w1Key })).kvs[0]?.value;
    if (!value) throw new Error('w1 is not in etcd after the set-up');

    const etcdCpu = () => processCpuMicros(pid);
    /** The kapi child's probe, sampling etcd's CPU at the same moments (the measured window's ends). */
    const withEtcdCpu = (server: ServerProcess, samples: (number | undefined)[]): ServerProbe => ({
      cpuMicros: async () => {
        samples.push(await etcdCpu());
        return server.cpuMicros();
      },
      startProfile: () => server.startProfile(),
      stopProfile: (path) => server.stopProfile(path),
    });
    const share = (samples: (number | undefined)[], seconds: number) =>
      samples[0] !== undefined && samples[1] !== undefined ? (samples[1] - samples[0]) / 1e6 / seconds : undefined;

    log(`etcd3 puts of ${value.length} bytes, ${cfg.connections} at a time`);
    const put = (c: Etcd3, seq: number) => c.kv.put({ key: Buffer.from(`/bench/raw/${seq}`), value });
    const rawPut = await rawLoad('etcd3 put', raw, put, cfg.connections, cfg.seconds, cfg.warmupSeconds, etcdCpu);
    log(`etcd3 gets of w1, ${cfg.connections} at a time`);
    const rawGet = await rawLoad('etcd3 get', raw, (c) => c.kv.range({ key: w1Key }), cfg.connections, cfg.seconds, cfg.warmupSeconds, etcdCpu);

    const headers = { authorization: `Bearer ${ctx.token}`, accept: 'application/json' };
    const profiles: Record<string, number> = {};
    const kapiLoad = (name: string, spec: LoadSpec) =>
      withServer('./kapi-server.js', kapi, async (url, server) => {
        await waitForWidgetsServed(httpsClient(url, ctx.caCertPem, ctx.token));
        const samples: (number | undefined)[] = [];
        const figures = await measure({ ...spec, url }, cfg, withEtcdCpu(server, samples), ctx.profilePath(name));
        profiles[name] = figures.total;
        return { figures, etcdCoreShare: share(samples, figures.durationSeconds) };
      });
    log('kapi on etcd: create widgets');
    const create = await kapiLoad('kapi-etcd-create', {
      title: 'kapi create (etcd)',
      url: '',
      okStatus: 201,
      method: 'POST',
      path: widgetsCollectionPath,
      headers: { ...headers, 'content-type': 'application/json' },
      body: (phase, seq) => JSON.stringify(widget(`bench-etcd-${phase}-${seq}`)),
    });
    log('kapi on etcd: GET widget w1');
    const get = await kapiLoad('kapi-etcd-get', { title: 'kapi GET (etcd)', url: '', okStatus: 200, path: widgetPath, headers });
    return {
      valueBytes: value.length,
      rawPut,
      rawGet,
      create: create.figures,
      get: get.figures,
      etcdCoreShare: { rawPut: rawPut.serverCoreShare, rawGet: rawGet.serverCoreShare, create: create.etcdCoreShare, get: get.etcdCoreShare },
      ratios: { createOverPut: create.figures.reqPerSec / rawPut.opsPerSec, getOverGet: get.figures.reqPerSec / rawGet.opsPerSec },
      profiles,
    };
  } finally {
    raw.close();
    await etcd.close();
  }
}
