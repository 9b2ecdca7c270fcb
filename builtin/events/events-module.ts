import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { coreEventResource, eventsV1EventResource } from './event-resources.js';
import { EventExpiry } from './event-expiry.js';

/** kube-apiserver's default `--event-ttl`: one hour. */
export const defaultEventTtlMs = 60 * 60 * 1000;

export interface EventsModuleOptions {
  /** How long an Event is kept after its last write (kube-apiserver's `--event-ttl`); default one hour. */
  eventTtlMs?: number;
}

/** Serves Events in core/v1 and events.k8s.io/v1 (the same stored objects), deleted once their TTL has passed. */
export function eventsModule(opts: EventsModuleOptions = {}): Module {
  return defineModule('events', (c) => {
    const core = coreEventResource();
    c.register(Tokens.BuiltinResource, { useValue: core });
    c.register(Tokens.BuiltinResource, { useValue: eventsV1EventResource() });
    c.register(Tokens.Controller, { useValue: new EventExpiry(c, core, opts.eventTtlMs ?? defaultEventTtlMs) });
  });
}
