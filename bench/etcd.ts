/**
 * kapi on etcd: its own CPU per create (the verdict, issue #25 item 8), and creates and GETs of widgets by a kapi
 * server on a local single-member etcd (data on the temp dir's disk, as SQLite's) against puts and gets of the same
 * bytes straight through the etcd3 client at the same concurrency, in the same run. A put writes what a create stores (the stored JSON of w1) under a fresh key; a
 * get reads w1's key. kapi's create is one etcd transaction, its GET one etcd read. For scale, etcd3 also runs the
 * transaction a create needs (put if the key does not exist, as kapi's and kube-apiserver's): etcd does more for it
 * than for a put. Creates/s against etcd3's puts/s is information only: on a 2-core machine etcd, the load generator
 * and kapi share the cores, so the ratio says more about the machine than about kapi.
 *
 * Every round also measures the create rate of 2 kapi instances on the same etcd, the connections split between them,
 * against the rate of 1 in the same round (each instance a fresh child with a data dir of its own; both children's
 * CPU sampled at the measured window's ends as one child's is).
 *
 * The pairs run in rounds, kapi first in every other round, and the median round is reported: on a small machine one
 * measurement swings by a fifth from run to run, and whatever drifts during the group (etcd's database growing, other
 * load) should not always favour the same side.
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
import { measureSplit, type SplitFigures } from './split-load.js';
import { createWidgetW1, installWidgetsCrd, waitForWidgetsServed, widget, widgetPath, widgetsCollectionPath } from './widgets.js';

export interface EtcdResults {
  /** Bytes of the value every put writes (w1 as kapi stores it). */
  valueBytes: number;
  /** The figures of the round whose kapi CPU per create is the median. */
  rawPut: RawFigures;
  /** etcd3 transactions that create a key (compare create revision = 0, then put) — informational. */
  rawTxnCreate: RawFigures;
  create: Figures;
  /** The figures of the round whose GET/get ratio is the median. */
  rawGet: RawFigures;
  get: Figures;
  /** The round whose 2-instances / 1-instance create rate is the median: creates by 2 kapi instances at once. */
  twoInstances: SplitFigures;
  /** The creates of 1 kapi instance in that round. */
  oneInstance: Figures;
  /** etcd's CPU during each of those measurements, in shares of one core. */
  etcdCoreShare: { rawPut?: number; rawGet?: number; create?: number; get?: number; twoInstances?: number };
  /** The median rounds' ratios. */
  ratios: {
    /** kapi creates/s ÷ etcd3 puts/s. */
    createOverPut: number;
    /** kapi creates/s ÷ etcd3 create transactions/s (informational). */
    createOverTxnCreate: number;
    /** kapi GETs/s ÷ etcd3 gets/s. */
    getOverGet: number;
    /** Creates/s of 2 kapi instances on the etcd ÷ creates/s of 1. */
    twoOverOneInstance: number;
  };
  /** Every round's throughputs, in the order they ran. */
  rounds: EtcdRound[];
  profiles: Record<string, number>;
}

export interface EtcdRound {
  kapiFirst: boolean;
  putOpsPerSec: number;
  txnCreateOpsPerSec: number;
  createReqPerSec: number;
  /** kapi's CPU per create, µs. */
  createCpuMicros: number | undefined;
  createOverPut: number;
  twoInstancesReqPerSec: number;
  twoOverOneInstance: number;
  getOpsPerSec: number;
  kapiGetReqPerSec: number;
  getOverGet: number;
}

/** Creates by 2 kapi instances in one round, with etcd's CPU share meanwhile. */
interface TwoInstances {
  figures: SplitFigures;
  etcdCoreShare?: number;
}

/** One raw-against-kapi pair of one round, with etcd's CPU share during kapi's side. */
interface Pair<R> {
  raw: R;
  kapi: Figures;
  etcdDuringKapi?: number;
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
    const secondKapi: KapiServerSettings = { ...kapi, dataDir: join(ctx.root, 'data-etcd-2') };
    await mkdir(kapi.dataDir, { recursive: true, mode: 0o700 });
    await mkdir(secondKapi.dataDir, { recursive: true, mode: 0o700 });
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

    const headers = { authorization: `Bearer ${ctx.token}`, accept: 'application/json' };
    const profiles: Record<string, number> = {};
    /** kapi under autocannon in a fresh child; the first round's window is profiled (BENCH_PROFILE=1). */
    const kapiLoad = (name: string, spec: LoadSpec, round: number) =>
      withServer('./kapi-server.js', kapi, async (url, server) => {
        await waitForWidgetsServed(httpsClient(url, ctx.caCertPem, ctx.token));
        const samples: (number | undefined)[] = [];
        const figures = await measure({ ...spec, url }, cfg, withEtcdCpu(server, samples), round === 0 ? ctx.profilePath(name) : undefined);
        if (round === 0) profiles[name] = figures.total;
        return { figures, etcdCoreShare: share(samples, figures.durationSeconds) };
      });
    const createSpec = (name: string): LoadSpec => ({
      title: 'kapi create (etcd)',
      url: '',
      okStatus: 201,
      method: 'POST',
      path: widgetsCollectionPath,
      headers: { ...headers, 'content-type': 'application/json' },
      body: (phase, seq) => JSON.stringify(widget(`${name}-${phase}-${seq}`)),
    });
    /** Two fresh kapi children on the etcd at once, the connections split between them. */
    const twoKapiCreates = (round: number): Promise<TwoInstances> =>
      withServer('./kapi-server.js', kapi, (urlA, a) =>
        withServer('./kapi-server.js', secondKapi, async (urlB, b) => {
          await waitForWidgetsServed(httpsClient(urlA, ctx.caCertPem, ctx.token));
          await waitForWidgetsServed(httpsClient(urlB, ctx.caCertPem, ctx.token));
          const samples: (number | undefined)[] = [];
          const specs = [urlA, urlB].map((url, i) => ({ ...createSpec(`bench-etcd2-${round}-${i}`), url }));
          const figures = await measureSplit('kapi create (etcd), 2 instances', specs, cfg, [withEtcdCpu(a, samples), b]);
          return { figures, etcdCoreShare: share(samples, figures.durationSeconds) };
        }),
      );
    const pair = async <R>(kapiFirst: boolean, rawSide: () => Promise<R>, kapiSide: () => ReturnType<typeof kapiLoad>): Promise<Pair<R>> => {
      const k = kapiFirst ? await kapiSide() : undefined;
      const r = await rawSide();
      const { figures, etcdCoreShare } = k ?? (await kapiSide());
      return { raw: r, kapi: figures, etcdDuringKapi: etcdCoreShare };
    };

    const creates: Pair<{ put: RawFigures; txnCreate: RawFigures }>[] = [];
    const gets: Pair<RawFigures>[] = [];
    const twos: TwoInstances[] = [];
    for (let round = 0; round < cfg.etcdRounds; round++) {
      const kapiFirst = round % 2 === 1;
      const of = `round ${round + 1} of ${cfg.etcdRounds}${kapiFirst ? ', kapi first' : ''}`;
      /** The 2-instance creates, before the 1-instance creates in the rounds where kapi goes first, after them in the others. */
      const twoInstances = async () => {
        log(`${of}: kapi creates by 2 instances on the etcd, ${cfg.connections / 2} connections each`);
        twos.push(await twoKapiCreates(round));
      };
      const put = (c: Etcd3, seq: number) => c.kv.put({ key: Buffer.from(`/bench/raw/${round}/${seq}`), value });
      const txnCreate = (c: Etcd3, seq: number) => {
        const key = Buffer.from(`/bench/txn/${round}/${seq}`);
        return c.kv.txn({
          compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }],
          success: [{ request_put: { key, value } }],
          failure: [{ request_range: { key } }],
        });
      };
      if (kapiFirst) await twoInstances();
      log(`${of}: etcd3 puts and create transactions of ${value.length} bytes, and kapi creates, ${cfg.connections} at a time`);
      creates.push(
        await pair(
          kapiFirst,
          async () => ({
            put: await rawLoad('etcd3 put', raw, put, cfg.connections, cfg.seconds, cfg.warmupSeconds, etcdCpu),
            txnCreate: await rawLoad('etcd3 create txn', raw, txnCreate, cfg.connections, cfg.seconds, cfg.warmupSeconds, etcdCpu),
          }),
          () => kapiLoad('kapi-etcd-create', createSpec(`bench-etcd-${round}`), round),
        ),
      );
      if (!kapiFirst) await twoInstances();
      log(`${of}: etcd3 gets and kapi GETs of w1`);
      gets.push(
        await pair(
          kapiFirst,
          () => rawLoad('etcd3 get', raw, (c) => c.kv.range({ key: w1Key }), cfg.connections, cfg.seconds, cfg.warmupSeconds, etcdCpu),
          () => kapiLoad('kapi-etcd-get', { title: 'kapi GET (etcd)', url: '', okStatus: 200, path: widgetPath, headers }, round),
        ),
      );
    }
    const overPut = (p: Pair<{ put: RawFigures }>) => p.kapi.reqPerSec / p.raw.put.opsPerSec;
    const overGet = (p: Pair<RawFigures>) => p.kapi.reqPerSec / p.raw.opsPerSec;
    const cpuPerCreate = (p: Pair<unknown>) => p.kapi.serverCpu?.microsPerOk ?? Number.POSITIVE_INFINITY;
    const twoOverOne = (i: number) => twos[i]!.figures.reqPerSec / creates[i]!.kapi.reqPerSec;
    const create = medianBy(creates, cpuPerCreate);
    const get = medianBy(gets, overGet);
    const two = medianBy(twos.map((_, i) => i), twoOverOne);
    return {
      valueBytes: value.length,
      rawPut: create.raw.put,
      rawTxnCreate: create.raw.txnCreate,
      create: create.kapi,
      rawGet: get.raw,
      get: get.kapi,
      twoInstances: twos[two]!.figures,
      oneInstance: creates[two]!.kapi,
      etcdCoreShare: {
        rawPut: create.raw.put.serverCoreShare,
        rawGet: get.raw.serverCoreShare,
        create: create.etcdDuringKapi,
        get: get.etcdDuringKapi,
        twoInstances: twos[two]!.etcdCoreShare,
      },
      ratios: {
        createOverPut: overPut(create),
        createOverTxnCreate: create.kapi.reqPerSec / create.raw.txnCreate.opsPerSec,
        getOverGet: overGet(get),
        twoOverOneInstance: twoOverOne(two),
      },
      rounds: creates.map((c, i) => ({
        kapiFirst: i % 2 === 1,
        putOpsPerSec: c.raw.put.opsPerSec,
        txnCreateOpsPerSec: c.raw.txnCreate.opsPerSec,
        createReqPerSec: c.kapi.reqPerSec,
        createCpuMicros: c.kapi.serverCpu?.microsPerOk,
        createOverPut: overPut(c),
        twoInstancesReqPerSec: twos[i]!.figures.reqPerSec,
        twoOverOneInstance: twoOverOne(i),
        getOpsPerSec: gets[i]!.raw.opsPerSec,
        kapiGetReqPerSec: gets[i]!.kapi.reqPerSec,
        getOverGet: overGet(gets[i]!),
      })),
      profiles,
    };
  } finally {
    raw.close();
    await etcd.close();
  }
}

/** The element whose `key` is the median (the lower middle one of an even count). */
function medianBy<T>(items: T[], key: (t: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
