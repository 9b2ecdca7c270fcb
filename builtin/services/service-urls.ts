import { errors } from '../../core/contracts/api-error.js';
import type { Informer } from '../../core/contracts/informer.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { ServiceReference, ServiceResolver } from '../../core/contracts/service-resolver.js';
import type { Endpoints } from './endpoints-types.js';
import type { Service } from './service-types.js';

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The URLs that reach a Service's port, as kube-apiserver resolves a service reference with
 * `--enable-aggregator-routing` (apiserver's ResolveEndpoint, ResolveCluster for ExternalName): an ExternalName
 * Service is its external host at the port; any other type is the ready addresses of its Endpoints at the endpoint
 * port named as the Service port, in the order the Endpoints list them. Errors are kube's (its listers name the
 * resource in the singular): NotFound for a missing Service or Endpoints, ServiceUnavailable when the port or the
 * endpoints are missing.
 *
 * `services` and `endpoints` are keyed `namespace/name` (an informer's current()).
 */
export function serviceURLs(ref: ServiceReference, services: ReadonlyMap<string, KubeObject>, endpoints: ReadonlyMap<string, KubeObject>): URL[] {
  const key = `${ref.namespace}/${ref.name}`;
  const svc = services.get(key) as Service | undefined;
  if (!svc) throw errors.notFound({ group: '', resource: 'service', name: ref.name });
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName') return [new URL(`https://${hostPort(spec.externalName ?? '', ref.port)}`)];
  const svcPort = (spec.ports ?? []).find((p) => p.port === ref.port);
  if (!svcPort) throw errors.serviceUnavailable(`no service port ${ref.port} found for service "${ref.name}"`);
  const ep = endpoints.get(key) as Endpoints | undefined;
  if (!ep) throw errors.notFound({ group: '', resource: 'endpoints', name: ref.name });
  const urls: URL[] = [];
  for (const ss of ep.subsets ?? []) {
    const port = (ss.ports ?? []).find((p) => (p.name ?? '') === (svcPort.name ?? ''));
    if (!port) continue;
    for (const address of ss.addresses ?? []) urls.push(new URL(`https://${hostPort(address.ip ?? '', port.port ?? 0)}`));
  }
  if (!urls.length) throw errors.serviceUnavailable(`no endpoints available for service "${ref.name}"`);
  return urls;
}

/** A Service port's URLs, and the Service and Endpoints objects they were read from. */
interface Resolution {
  service: KubeObject | undefined;
  endpoints: KubeObject | undefined;
  urls: URL[];
}

/** Service ports whose URLs are kept; more (Services come and go) and the kept ones are dropped. */
const maxResolutions = 1024;

/**
 * kube-apiserver's ServiceResolver with `--enable-aggregator-routing` (NewEndpointServiceResolver): serviceURLs over the
 * server's Service and Endpoints informers, one of the URLs picked at random as kube does (calls spread over replicas).
 * A port's URLs are read again only when its Service or Endpoints object changed (an informer replaces the objects it
 * sees change), not for every proxied request.
 */
export class EndpointsServiceResolver implements ServiceResolver {
  private readonly resolved = new Map<string, Resolution>();
  /** Both informers have synced once (they stay synced): no await per proxied request. */
  private synced = false;

  constructor(
    private readonly services: () => Informer,
    private readonly endpoints: () => Informer,
  ) {}

  async resolveEndpoint(ref: ServiceReference): Promise<URL> {
    const services = this.services();
    const endpoints = this.endpoints();
    if (!this.synced) {
      await Promise.all([services.synced(), endpoints.synced()]);
      this.synced = true;
    }
    const objectKey = `${ref.namespace}/${ref.name}`;
    const service = services.current().get(objectKey);
    const endpointsObject = endpoints.current().get(objectKey);
    const key = `${objectKey}:${ref.port}`;
    let resolution = this.resolved.get(key);
    if (!resolution || resolution.service !== service || resolution.endpoints !== endpointsObject) {
      resolution = { service, endpoints: endpointsObject, urls: serviceURLs(ref, services.current(), endpoints.current()) };
      if (this.resolved.size >= maxResolutions) this.resolved.clear();
      this.resolved.set(key, resolution);
    }
    const { urls } = resolution;
    return urls[Math.floor(Math.random() * urls.length)]!;
  }
}
