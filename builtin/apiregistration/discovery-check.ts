import https from 'node:https';
import type { ServiceResolver } from '../../core/contracts/service-resolver.js';
import { goCause } from '../../lib/webhook/webhook-client.js';
import { discoveryCheckTlsOptions, type ProxyClientCertificate } from '../../lib/aggregator/backend-transport.js';
import { aggregatorIdentity } from './backend-get.js';

/** kube's discovery client timeout in the availability check: "the request should happen quickly". */
const checkTimeoutMs = 5_000;
/** kube asks this many times at once; one answer in the 200s is enough. */
const attempts = 5;

export interface DiscoveryTarget {
  service: { namespace: string; name: string; port: number };
  group: string;
  version: string;
}

/**
 * kube's remote availability check: GET `/apis/<group>/<version>` (a path every aggregated server must serve) on an
 * endpoint of the Service, `attempts` times at once, with the front-proxy client certificate and without verifying the
 * server's. Resolves to undefined when one attempt got a 2xx, else to the last failure in kube's words.
 */
export async function discoveryCheck(target: DiscoveryTarget, services: ServiceResolver, client: ProxyClientCertificate | undefined): Promise<string | undefined> {
  const outcomes = await Promise.all(Array.from({ length: attempts }, () => attempt(target, services, client)));
  return outcomes.includes(undefined) ? undefined : outcomes[outcomes.length - 1];
}

async function attempt(target: DiscoveryTarget, services: ServiceResolver, client: ProxyClientCertificate | undefined): Promise<string | undefined> {
  let endpoint: URL;
  try {
    endpoint = await services.resolveEndpoint(target.service);
  } catch (err) {
    return (err as Error).message;
  }
  const host = endpoint.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(endpoint.port) || 443;
  const path = `/apis/${target.group}/${target.version}`;
  // Go writes the port even when it is https' own
  const href = `https://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
  const failing = (why: string) => `failing or missing response from ${href}: ${why}`;
  return new Promise((resolve) => {
    const req = https.request({ ...discoveryCheckTlsOptions(client), host, port, path, method: 'GET', headers: { ...aggregatorIdentity } }, (res) => {
      clearTimeout(timer);
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 300 ? undefined : failing(`bad status from ${href}: ${code}`));
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(failing(`Get "${href}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`));
    }, checkTimeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(failing(`Get "${href}": ${goCause(err, { host, port, serverName: host }, req)}`));
    });
    req.end();
  });
}
