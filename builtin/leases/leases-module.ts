import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { leaseResource } from './lease-resource.js';

/** Serves coordination.k8s.io/v1 Leases (leader election, heartbeats). */
export function leasesModule(): Module {
  return defineModule('leases', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: leaseResource() });
  });
}
