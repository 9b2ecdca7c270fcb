import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { Service } from './service-types.js';
import { serviceResource } from './service-resource.js';
import { endpointsResource } from './endpoints-resource.js';
import { ServiceAllocator } from './service-allocator.js';
import { ServiceIPRange, defaultServiceClusterIPRange } from './service-ip-range.js';
import { NodePortRange, defaultServiceNodePortRange } from './node-port-range.js';

export interface ServicesOptions {
  /** kube-apiserver's `--service-cluster-ip-range`: the IPv4 CIDR cluster IPs come from (default 10.0.0.0/24). */
  serviceClusterIPRange?: string;
  /** kube-apiserver's `--service-node-port-range` (default 30000-32767). */
  serviceNodePortRange?: string;
}

/**
 * Serves v1 Services (cluster IPs and node ports allocated as kube does; no proxying) and v1 Endpoints (written by
 * users: kapi has no pods, hence no endpoints controller). ServiceResolver (service-urls.ts) turns a Service
 * reference into the URLs that reach it.
 */
export function servicesModule(options: ServicesOptions = {}): Module {
  const ipRange = ServiceIPRange.parse(options.serviceClusterIPRange ?? defaultServiceClusterIPRange);
  const portRange = NodePortRange.parse(options.serviceNodePortRange ?? defaultServiceNodePortRange);
  return defineModule('services', (c) => {
    const allocator = new ServiceAllocator(c, ipRange, portRange);
    c.register(Tokens.BuiltinResource, { useValue: serviceResource((svc, old, opts) => allocator.beginWrite(svc as Service, old as Service | undefined, opts)) });
    c.register(Tokens.BuiltinResource, { useValue: endpointsResource() });
    c.register(Tokens.Controller, { useValue: allocator });
  });
}
