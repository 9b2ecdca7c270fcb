import { defineModule, resolveLater, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { Service } from './service-types.js';
import { serviceResource } from './service-resource.js';
import { endpointsResource } from './endpoints-resource.js';
import { ServiceAllocator } from './service-allocator.js';
import { ServiceIPRange, defaultServiceClusterIPRange } from './service-ip-range.js';
import { NodePortRange, defaultServiceNodePortRange } from './node-port-range.js';
import { EndpointsServiceResolver } from './service-urls.js';

export interface ServicesOptions {
  /** kube-apiserver's `--service-cluster-ip-range`: the IPv4 CIDR cluster IPs come from (default 10.0.0.0/24). */
  serviceClusterIPRange?: string;
  /** kube-apiserver's `--service-node-port-range` (default 30000-32767). */
  serviceNodePortRange?: string;
}

/**
 * Serves v1 Services (cluster IPs and node ports allocated as kube does; no proxying) and v1 Endpoints (written by
 * users: kapi has no pods, hence no endpoints controller), and the ServiceResolver webhooks are dialled through
 * (service-urls.ts: a Service reference to an endpoint that reaches it).
 */
export function servicesModule(options: ServicesOptions = {}): Module {
  const ipRange = ServiceIPRange.parse(options.serviceClusterIPRange ?? defaultServiceClusterIPRange);
  const portRange = NodePortRange.parse(options.serviceNodePortRange ?? defaultServiceNodePortRange);
  return defineModule('services', (c) => {
    const allocator = new ServiceAllocator(c, ipRange, portRange);
    const services = serviceResource((svc, old, opts) => allocator.beginWrite(svc as Service, old as Service | undefined, opts));
    const endpoints = endpointsResource();
    c.register(Tokens.BuiltinResource, { useValue: services });
    c.register(Tokens.BuiltinResource, { useValue: endpoints });
    c.register(Tokens.Controller, { useValue: allocator });
    const informers = resolveLater(c, Tokens.Informers);
    c.register(Tokens.ServiceResolver, {
      useValue: new EndpointsServiceResolver(
        () => informers().forResource(services),
        () => informers().forResource(endpoints),
      ),
    });
  });
}
