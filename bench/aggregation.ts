/**
 * The aggregation group: what the aggregation proxy costs a GET. A backend kapi (widget w1, trusting the front's
 * front-proxy CA) and a front kapi with an APIService for example.com/v1 routed to it through a Service and Endpoints
 * (on this machine's non-loopback address: kube refuses loopback Endpoints), both running through the group. GET of w1
 * straight at the backend, then through the front (authenticated and authorized there, proxied over TLS verified with
 * caBundle and the front-proxy client certificate, authenticated again at the backend from its headers): front ÷ direct
 * req/s. The front is idle but up during the direct measurement. Server CPU through the front is the front's and the
 * backend's together, so CPU per request compares the two paths even on a busy machine (informational).
 */
import { join } from 'node:path';
import { ensureFrontProxyPki, ensurePki } from '../index.js';
import { endpointIp } from '../tests/helpers/aggregated-backend.js';
import type { BenchContext } from './context.js';
import { expectStatus, httpsClient, type HttpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { measure, type Figures } from './load.js';
import { startServerProcess, withServer, type ServerProbe } from './server-process.js';
import { createWidgetW1, installWidgetsCrd, waitForWidgetsServed, widgetPath } from './widgets.js';
import { median } from './median.js';

export interface AggregationResults {
  direct: Figures;
  throughFront: Figures;
  /**
   * Through the front ÷ direct req/s of each pair measured back to back: the long pair (direct, throughFront), then
   * `alternations` short ones. This host's speed drifts by up to 2× between runs and within one; a pair shares it.
   */
  pairRatios: number[];
  /** The median of pairRatios: the verdict's figure. */
  ratio: number;
  /** Server CPU per GET direct ÷ through the front (front and backend), when both were measured. */
  ratioByServerCpu?: number;
  /** The front's own CPU per proxied GET, µs (through the front, the backend's part left out). */
  frontCpuMicrosPerOk?: number;
}

/** Short pairs (direct, then through the front) measured after the long one, and how long each half runs. */
const alternations = 4;
const alternationSeconds = 2;

/** The backend's Service: the name its serving certificate is for (`<name>.<namespace>.svc`, what the front verifies). */
const service = { namespace: 'bench-aggregation', name: 'backend' };
const readyTimeoutMs = 30_000;

export async function runAggregation(ctx: BenchContext): Promise<AggregationResults> {
  const { cfg, log } = ctx;
  const address = endpointIp();
  const frontProxy = await ensureFrontProxyPki(join(ctx.root, 'pki-front-proxy'));
  const backendPkiDir = join(ctx.root, 'pki-aggregation-backend');
  const serverNames = [`${service.name}.${service.namespace}.svc`];
  const backendPki = await ensurePki(backendPkiDir, { hosts: [address, ...serverNames] });
  const backendSettings: KapiServerSettings = {
    dataDir: join(ctx.root, 'data-aggregation-backend'),
    pkiDir: backendPkiDir,
    token: ctx.token,
    host: address,
    serverNames,
    requestHeaderCaFile: join(ctx.root, 'pki-front-proxy', 'front-proxy-ca.crt'),
  };
  const frontSettings: KapiServerSettings = { dataDir: join(ctx.root, 'data-aggregation-front'), pkiDir: ctx.pkiDir, token: ctx.token, proxyClient: frontProxy };
  const headers = { authorization: `Bearer ${ctx.token}`, accept: 'application/json' };

  const backend = await startServerProcess('./kapi-server.js', backendSettings);
  try {
    const port = Number(new URL(backend.url).port);
    log(`aggregation set-up: widget w1 at the backend (${backend.url})`);
    await withClient(httpsClient(backend.url, backendPki.caCertPem, ctx.token), async (c) => {
      await installWidgetsCrd(c);
      await waitForWidgetsServed(c);
      await createWidgetW1(c);
    });
    return await withServer('./kapi-server.js', frontSettings, async (frontUrl, front) => {
      log('aggregation set-up: the APIService v1.example.com at the front, routed to the backend');
      await withClient(httpsClient(frontUrl, ctx.caCertPem, ctx.token), async (c) => {
        await registerBackend(c, address, port, backendPki.caCertPem);
        await waitForProxied(c);
      });
      const directSpec = { title: 'kapi GET, direct to the backend', url: backend.url, okStatus: 200, path: widgetPath, headers };
      const frontSpec = { title: 'kapi GET, through the front', url: frontUrl, okStatus: 200, path: widgetPath, headers };
      log('aggregation: GET w1 direct to the backend');
      const direct = await measure(directSpec, cfg, backend, ctx.profilePath('aggregation-backend-direct'));
      log('aggregation: GET w1 through the front');
      const frontAlone: number[] = [];
      const throughFront = await measure(frontSpec, cfg, bothServers(front, backend, frontAlone), ctx.profilePath('aggregation-front'));
      log(`aggregation: ${alternations} more pairs of ${alternationSeconds} s, direct then through the front`);
      const pairRatios = [throughFront.reqPerSec / direct.reqPerSec];
      const short = { ...cfg, seconds: alternationSeconds, warmupSeconds: 1 };
      for (let i = 0; i < alternations; i++) {
        const d = await measure(directSpec, short);
        const f = await measure(frontSpec, short);
        pairRatios.push(f.reqPerSec / d.reqPerSec);
      }
      const directCpu = direct.serverCpu?.microsPerOk;
      const bothCpu = throughFront.serverCpu?.microsPerOk;
      const frontCpu = frontAlone.length === 2 && throughFront.ok ? (frontAlone[1]! - frontAlone[0]!) / throughFront.ok : undefined;
      return {
        direct,
        throughFront,
        pairRatios,
        ratio: median(pairRatios),
        ...(directCpu && bothCpu ? { ratioByServerCpu: directCpu / bothCpu } : {}),
        ...(frontCpu !== undefined ? { frontCpuMicrosPerOk: frontCpu } : {}),
      };
    });
  } finally {
    await backend.stop();
  }
}

/**
 * The front and the backend as one server: their CPU time together; the front's profile, and the backend's beside it
 * (`…-backend.cpuprofile`). The front's own CPU time at each reading is pushed to `frontReadings` (measure reads before
 * and after the measured window).
 */
function bothServers(front: ServerProbe, backend: ServerProbe, frontReadings: number[]): ServerProbe {
  return {
    cpuMicros: async () => {
      const frontMicros = await front.cpuMicros();
      frontReadings.push(frontMicros);
      return frontMicros + (await backend.cpuMicros());
    },
    startProfile: async () => {
      await front.startProfile();
      await backend.startProfile();
    },
    stopProfile: async (path) => {
      await front.stopProfile(path);
      await backend.stopProfile(path.replace(/\.cpuprofile$/, '-backend.cpuprofile'));
    },
  };
}

async function withClient<T>(c: HttpsClient, body: (c: HttpsClient) => Promise<T>): Promise<T> {
  try {
    return await body(c);
  } finally {
    c.close();
  }
}

/** The Namespace, Service, Endpoints (address:port) and APIService (caBundle) that route example.com/v1 to the backend. */
async function registerBackend(c: HttpsClient, address: string, port: number, caCertPem: string): Promise<void> {
  const { namespace, name } = service;
  const steps: [string, Record<string, unknown>][] = [
    ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }],
    [`/api/v1/namespaces/${namespace}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 443, targetPort: port }] } }],
    [`/api/v1/namespaces/${namespace}/endpoints`, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets: [{ addresses: [{ ip: address }], ports: [{ port }] }] }],
    [
      '/apis/apiregistration.k8s.io/v1/apiservices',
      {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1.example.com' },
        spec: { group: 'example.com', version: 'v1', service: { namespace, name }, caBundle: Buffer.from(caCertPem).toString('base64'), groupPriorityMinimum: 1000, versionPriority: 15 },
      },
    ],
  ];
  for (const [path, body] of steps) expectStatus(await c.request('POST', path, body), [201], `create ${String(body.kind)} at the front`);
}

/** Polls GET of w1 through the front until the backend answers it (the APIService's routing is in place). */
async function waitForProxied(c: HttpsClient): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const res = await c.request('GET', widgetPath);
    if (res.status === 200) return;
    if (Date.now() > deadline) expectStatus(res, [200], 'GET w1 through the front');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

