import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { GarbageCollector } from './garbage-collector.js';

/**
 * kube's garbage collector (kube-controller-manager's, run inside the server): ownerReferences are followed across
 * every resource kapi stores, and deletions propagate to dependents as their DeleteOptions ask.
 */
export function garbageCollectorModule(): Module {
  return defineModule('garbage-collector', (c) => {
    c.register(Tokens.Controller, { useValue: new GarbageCollector(c) });
  });
}
