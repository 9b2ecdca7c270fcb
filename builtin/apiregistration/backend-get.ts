import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { RemoteAPIService } from '../../core/contracts/api-services.js';
import type { ServiceResolver } from '../../core/contracts/service-resolver.js';
import { goCause } from '../../lib/webhook/webhook-client.js';
import { authProxyHeaders } from '../../lib/aggregator/auth-proxy-headers.js';
import { backendServerName, backendTlsOptions, type ProxyClientCertificate } from '../../lib/aggregator/backend-transport.js';

/** Who kube's aggregator is when it checks or reads a backend (discovery, OpenAPI): system:masters, never refused. */
export const aggregatorIdentity = authProxyHeaders({ username: 'system:kube-aggregator', groups: ['system:masters'] });

export interface BackendAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How a backend is reached: the Service's endpoint resolved, the APIService's TLS and the front-proxy certificate. */
export interface BackendRoute {
  services: ServiceResolver;
  client: ProxyClientCertificate | undefined;
}

/**
 * A GET the aggregation layer itself sends to the backend of an APIService (as kube's aggregator does through its
 * proxy handler for discovery and OpenAPI): same transport as proxied requests, as system:kube-aggregator. Rejects
 * with kube's words when the backend cannot be reached or does not answer within `timeoutMs`.
 */
export async function backendGet(
  remote: RemoteAPIService,
  route: BackendRoute,
  path: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<BackendAnswer> {
  const endpoint = await route.services.resolveEndpoint(remote.service);
  const host = endpoint.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(endpoint.port) || 443;
  const serverName = backendServerName(remote);
  return new Promise((resolve, reject) => {
    const req = https.request({ ...backendTlsOptions(remote, route.client), host, port, path, method: 'GET', headers: { ...headers, ...aggregatorIdentity }, servername: serverName });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`GET ${path}: context deadline exceeded`));
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(`GET ${path}: ${goCause(err, { host, port, serverName }, req)}`));
    });
    req.end();
  });
}
