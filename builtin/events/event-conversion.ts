import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { ObjectConverter } from '../../core/contracts/object-converter.js';
import { canonicalMicroTime } from '../../lib/go/micro-time.js';
import type { CoreEvent, EventsV1Event } from './event-types.js';

export const coreEventApiVersion = 'v1';
export const eventsV1ApiVersion = 'events.k8s.io/v1';

/**
 * A core/v1 Event as kube stores it: its MicroTimes in UTC with six fraction digits, and the fields Go's encoding/json
 * always writes (no omitempty, or a struct or metav1 time that omitempty does not omit) set when the Event has none.
 */
export function canonicalCoreEvent(e: CoreEvent): CoreEvent {
  if (e.eventTime) e.eventTime = canonicalMicroTime(e.eventTime) ?? e.eventTime;
  if (e.series?.lastObservedTime) e.series.lastObservedTime = canonicalMicroTime(e.series.lastObservedTime) ?? e.series.lastObservedTime;
  e.involvedObject ??= {};
  e.source ??= {};
  e.firstTimestamp ??= null;
  e.lastTimestamp ??= null;
  e.eventTime ??= null;
  e.reportingComponent ??= '';
  e.reportingInstance ??= '';
  return e;
}

/** The fields Go's encoding/json always writes for an events.k8s.io/v1 Event, set when it has none. */
function withEventsV1Shape(e: EventsV1Event): EventsV1Event {
  e.eventTime ??= null;
  e.regarding ??= {};
  e.deprecatedSource ??= {};
  e.deprecatedFirstTimestamp ??= null;
  e.deprecatedLastTimestamp ??= null;
  return e;
}

/** Copies `from[a]` to `to[b]` when set and not a Go zero value (what omitempty leaves out). */
function carry(from: Record<string, unknown>, a: string, to: Record<string, unknown>, b: string): void {
  const value = from[a];
  if (value !== undefined && value !== null && value !== '' && value !== 0) to[b] = structuredClone(value);
}

/** Fields named alike in both versions. */
const sameNames = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];
/** events.k8s.io/v1 name → core/v1 name (kube's Convert_v1_Event_To_core_Event and back). */
const renamed: [string, string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

/** An events.k8s.io/v1 Event as the core/v1 Event kube stores it. */
export function eventsV1ToCore(e: EventsV1Event): CoreEvent {
  const out: Record<string, unknown> = { apiVersion: coreEventApiVersion, kind: 'Event', metadata: structuredClone(e.metadata) };
  const from = e as Record<string, unknown>;
  for (const f of sameNames) carry(from, f, out, f);
  for (const [v1, core] of renamed) carry(from, v1, out, core);
  return canonicalCoreEvent(out as CoreEvent);
}

/** A core/v1 Event as events.k8s.io/v1 serves it. */
export function coreToEventsV1(e: CoreEvent): EventsV1Event {
  const out: Record<string, unknown> = { apiVersion: eventsV1ApiVersion, kind: 'Event', metadata: structuredClone(e.metadata) };
  const from = e as Record<string, unknown>;
  for (const f of sameNames) carry(from, f, out, f);
  for (const [v1, core] of renamed) carry(from, core, out, v1);
  return withEventsV1Shape(out as EventsV1Event);
}

function convert(obj: KubeObject, apiVersion: string): KubeObject {
  if (obj.apiVersion === apiVersion) return { ...obj };
  if (apiVersion === coreEventApiVersion) return eventsV1ToCore(obj);
  if (apiVersion === eventsV1ApiVersion) return coreToEventsV1(obj);
  throw new Error(`kapi: no conversion of an Event to ${apiVersion}`);
}

/** Converts Events between core/v1 (the stored form) and events.k8s.io/v1, field by field as kube does. */
export const eventConverter: ObjectConverter = {
  synchronous: true,
  convertObject: convert,
  convertList: (items, apiVersion) => items.map((o) => convert(o, apiVersion)),
};
