/*
 * meta/v1 messages <-> the JSON kube's encoding/json produces for the Go types, field by field:
 *  - non-pointer strings and integers carry `omitempty`: "" and 0 are left out;
 *  - pointer fields (`*int64`, `*bool`, `*Time`, `*FieldsV1`, ...) are emitted whenever they were on the wire;
 *  - a non-pointer `metav1.Time` (creationTimestamp, lastTransitionTime) is always emitted, as `null` when zero,
 *    because `omitempty` never drops a struct and `Time.MarshalJSON` writes null for the zero time;
 *  - Time is RFC 3339 in UTC with whole seconds (`2026-01-02T03:04:05Z`); int64 values are JSON numbers;
 *  - FieldsV1 holds raw JSON bytes, emitted as the JSON value they contain.
 * The encoding direction mirrors Go's generated marshallers (gogo): non-pointer fields are always written, pointer
 * fields only when set, map entries in sorted key order — so kubectl's bodies re-encode byte for byte.
 */
import { maxBodyDepth } from '../../../core/codec/body-decoder.js';
import {
  ConvertError,
  has,
  int64,
  jsonArray,
  jsonBool,
  jsonInt,
  jsonObject,
  jsonString,
  jsonStringMap,
  jsonStrings,
  list,
  str,
  stringMap,
  sub,
  type JsonObject,
  type Msg,
} from './json-shape.js';

// ---- Time ----------------------------------------------------------------------------------------------------------

/** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds. */
const goZeroTimeUnixSeconds = -62135596800;
const nanosPerSecond = 1_000_000_000;

/** `metav1.Time` message -> JSON: null for the zero time (seconds and nanos both 0, or Go's zero instant). */
export function timeToJSON(t: Msg | undefined): string | null {
  if (!t) return null;
  const seconds = int64(t.seconds);
  const nanos = has(t, 'nanos') ? Number(t.nanos) : 0;
  // Unmarshal treats {0, 0} as the zero time; otherwise time.Unix(seconds, nanos), which normalizes nanos.
  if (seconds === 0 && nanos === 0) return null;
  const wholeSeconds = seconds + Math.floor(nanos / nanosPerSecond);
  const remainder = nanos - Math.floor(nanos / nanosPerSecond) * nanosPerSecond;
  if (wholeSeconds === goZeroTimeUnixSeconds && remainder === 0) return null;
  return formatRfc3339(wholeSeconds);
}

/** Unix seconds as RFC 3339 UTC with whole seconds, as `metav1.Time.MarshalJSON` writes it. */
export function formatRfc3339(unixSeconds: number): string {
  const ms = unixSeconds * 1000;
  const date = Number.isSafeInteger(unixSeconds) ? new Date(ms) : new Date(NaN);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) {
    throw new ConvertError(`timestamp ${unixSeconds} is outside 0001-01-01T00:00:00Z..9999-12-31T23:59:59Z`);
  }
  return date.toISOString().slice(0, 19) + 'Z';
}

const rfc3339Pattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp (as `time.Parse(time.RFC3339, ...)` accepts it) into Unix seconds and nanos. */
export function parseRfc3339(text: string, path: string): { seconds: number; nanos: number } {
  const m = rfc3339Pattern.exec(text);
  if (!m) throw new ConvertError(`${path}: ${JSON.stringify(text)} is not an RFC 3339 time`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (
    month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 ||
    date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day
  ) {
    throw new ConvertError(`${path}: ${JSON.stringify(text)} is not a valid time`);
  }
  let offsetSeconds = 0;
  if (m[8] !== 'Z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const [oh, om] = m[8].slice(1).split(':').map(Number);
    if (oh > 23 || om > 59) throw new ConvertError(`${path}: ${JSON.stringify(text)} has an invalid zone offset`);
    offsetSeconds = sign * (oh * 3600 + om * 60);
  }
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds: date.getTime() / 1000 - offsetSeconds, nanos };
}

/** JSON -> `metav1.Time` message for a non-pointer Time: the zero time is an empty message (Go writes 0 bytes). */
export function timeFromJSON(v: unknown, path: string): Msg {
  if (v === undefined || v === null) return {};
  const { seconds, nanos } = parseRfc3339(jsonString(v, path), path);
  if (seconds === goZeroTimeUnixSeconds && nanos === 0) return {};
  return { seconds, nanos };
}

// ---- FieldsV1 ------------------------------------------------------------------------------------------------------

/** FieldsV1.Raw -> the JSON value it holds; absent Raw is null (as `FieldsV1.MarshalJSON` writes it). */
function fieldsV1ToJSON(f: Msg, path: string): unknown {
  if (!has(f, 'Raw')) return null;
  const raw = f.Raw as Uint8Array;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch (err) {
    throw new ConvertError(`${path}: invalid JSON: ${(err as Error).message}`);
  }
  // The whole object must stay within kapi's body depth limit; fieldsV1 sits 4 levels down.
  checkDepth(value, maxBodyDepth - 4, path);
  return value;
}

function checkDepth(value: unknown, limit: number, path: string): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) throw new ConvertError(`${path}: nesting exceeds the maximum depth`);
    for (const child of Object.values(v as object)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}

// ---- OwnerReference, ManagedFieldsEntry -----------------------------------------------------------------------------

function ownerReferenceToJSON(r: Msg): JsonObject {
  // apiVersion, kind, name and uid have no omitempty.
  const out: JsonObject = { apiVersion: str(r, 'apiVersion'), kind: str(r, 'kind'), name: str(r, 'name'), uid: str(r, 'uid') };
  if (has(r, 'controller')) out.controller = Boolean(r.controller);
  if (has(r, 'blockOwnerDeletion')) out.blockOwnerDeletion = Boolean(r.blockOwnerDeletion);
  return out;
}

function ownerReferenceFromJSON(v: unknown, path: string): Msg {
  const j = jsonObject(v, path) ?? {};
  const m: Msg = {
    kind: jsonString(j.kind, `${path}.kind`),
    name: jsonString(j.name, `${path}.name`),
    uid: jsonString(j.uid, `${path}.uid`),
    apiVersion: jsonString(j.apiVersion, `${path}.apiVersion`),
  };
  const controller = jsonBool(j.controller, `${path}.controller`);
  if (controller !== undefined) m.controller = controller;
  const block = jsonBool(j.blockOwnerDeletion, `${path}.blockOwnerDeletion`);
  if (block !== undefined) m.blockOwnerDeletion = block;
  return m;
}

function managedFieldsEntryToJSON(e: Msg, path: string): JsonObject {
  const out: JsonObject = {};
  putString(out, 'manager', e);
  putString(out, 'operation', e);
  putString(out, 'apiVersion', e);
  if (has(e, 'time')) out.time = timeToJSON(sub(e, 'time'));
  putString(out, 'fieldsType', e);
  if (has(e, 'fieldsV1')) out.fieldsV1 = fieldsV1ToJSON(sub(e, 'fieldsV1') ?? {}, `${path}.fieldsV1`);
  putString(out, 'subresource', e);
  return out;
}

function managedFieldsEntryFromJSON(v: unknown, path: string): Msg {
  const j = jsonObject(v, path) ?? {};
  const m: Msg = {
    manager: jsonString(j.manager, `${path}.manager`),
    operation: jsonString(j.operation, `${path}.operation`),
    apiVersion: jsonString(j.apiVersion, `${path}.apiVersion`),
  };
  if (j.time !== undefined && j.time !== null) m.time = timeFromJSON(j.time, `${path}.time`);
  m.fieldsType = jsonString(j.fieldsType, `${path}.fieldsType`);
  if (j.fieldsV1 !== undefined && j.fieldsV1 !== null) m.fieldsV1 = { Raw: Buffer.from(JSON.stringify(j.fieldsV1), 'utf8') };
  m.subresource = jsonString(j.subresource, `${path}.subresource`);
  return m;
}

// ---- ObjectMeta ----------------------------------------------------------------------------------------------------

function putString(out: JsonObject, key: string, m: Msg | undefined): void {
  const v = str(m, key);
  if (v !== '') out[key] = v;
}

/** `ObjectMeta` message (possibly absent) -> JSON. */
export function objectMetaToJSON(m: Msg | undefined, path = 'metadata'): JsonObject {
  const out: JsonObject = {};
  for (const key of ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion']) putString(out, key, m);
  const generation = has(m, 'generation') ? int64(m!.generation) : 0;
  if (generation !== 0) out.generation = generation;
  out.creationTimestamp = timeToJSON(sub(m, 'creationTimestamp'));
  if (has(m, 'deletionTimestamp')) out.deletionTimestamp = timeToJSON(sub(m, 'deletionTimestamp'));
  if (has(m, 'deletionGracePeriodSeconds')) out.deletionGracePeriodSeconds = int64(m!.deletionGracePeriodSeconds);
  const labels = stringMap(m, 'labels');
  if (labels) out.labels = labels;
  const annotations = stringMap(m, 'annotations');
  if (annotations) out.annotations = annotations;
  const owners = list<Msg>(m, 'ownerReferences');
  if (owners.length) out.ownerReferences = owners.map(ownerReferenceToJSON);
  const finalizers = list<string>(m, 'finalizers');
  if (finalizers.length) out.finalizers = [...finalizers];
  const managed = list<Msg>(m, 'managedFields');
  if (managed.length) out.managedFields = managed.map((e, i) => managedFieldsEntryToJSON(e, `${path}.managedFields[${i}]`));
  return out;
}

/** JSON `metadata` -> `ObjectMeta` message, with the fields Go always writes set even when empty. */
export function objectMetaFromJSON(v: unknown, path = 'metadata'): Msg {
  const j = jsonObject(v, path) ?? {};
  const m: Msg = {};
  for (const key of ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion']) {
    m[key] = jsonString(j[key], `${path}.${key}`);
  }
  m.generation = jsonInt(j.generation, `${path}.generation`) ?? 0;
  m.creationTimestamp = timeFromJSON(j.creationTimestamp, `${path}.creationTimestamp`);
  if (j.deletionTimestamp !== undefined && j.deletionTimestamp !== null) {
    m.deletionTimestamp = timeFromJSON(j.deletionTimestamp, `${path}.deletionTimestamp`);
  }
  const grace = jsonInt(j.deletionGracePeriodSeconds, `${path}.deletionGracePeriodSeconds`);
  if (grace !== undefined) m.deletionGracePeriodSeconds = grace;
  const labels = jsonStringMap(j.labels, `${path}.labels`);
  if (labels) m.labels = labels;
  const annotations = jsonStringMap(j.annotations, `${path}.annotations`);
  if (annotations) m.annotations = annotations;
  m.ownerReferences = jsonArray(j.ownerReferences, `${path}.ownerReferences`).map((r, i) => ownerReferenceFromJSON(r, `${path}.ownerReferences[${i}]`));
  m.finalizers = jsonStrings(j.finalizers, `${path}.finalizers`);
  m.managedFields = jsonArray(j.managedFields, `${path}.managedFields`).map((e, i) => managedFieldsEntryFromJSON(e, `${path}.managedFields[${i}]`));
  return m;
}

// ---- DeleteOptions -------------------------------------------------------------------------------------------------

/** `DeleteOptions` message -> JSON body (without apiVersion/kind). Every field is a pointer or a slice. */
export function deleteOptionsToJSON(m: Msg): JsonObject {
  const out: JsonObject = {};
  if (has(m, 'gracePeriodSeconds')) out.gracePeriodSeconds = int64(m.gracePeriodSeconds);
  if (has(m, 'preconditions')) {
    const p = sub(m, 'preconditions');
    const pre: JsonObject = {};
    if (has(p, 'uid')) pre.uid = str(p, 'uid');
    if (has(p, 'resourceVersion')) pre.resourceVersion = str(p, 'resourceVersion');
    out.preconditions = pre;
  }
  if (has(m, 'orphanDependents')) out.orphanDependents = Boolean(m.orphanDependents);
  if (has(m, 'propagationPolicy')) out.propagationPolicy = str(m, 'propagationPolicy');
  const dryRun = list<string>(m, 'dryRun');
  if (dryRun.length) out.dryRun = [...dryRun];
  if (has(m, 'ignoreStoreReadErrorWithClusterBreakingPotential')) {
    out.ignoreStoreReadErrorWithClusterBreakingPotential = Boolean(m.ignoreStoreReadErrorWithClusterBreakingPotential);
  }
  return out;
}

/** JSON DeleteOptions -> message. */
export function deleteOptionsFromJSON(j: JsonObject): Msg {
  const m: Msg = {};
  const grace = jsonInt(j.gracePeriodSeconds, 'gracePeriodSeconds');
  if (grace !== undefined) m.gracePeriodSeconds = grace;
  const pre = jsonObject(j.preconditions, 'preconditions');
  if (pre) {
    const p: Msg = {};
    if (pre.uid !== undefined && pre.uid !== null) p.uid = jsonString(pre.uid, 'preconditions.uid');
    if (pre.resourceVersion !== undefined && pre.resourceVersion !== null) {
      p.resourceVersion = jsonString(pre.resourceVersion, 'preconditions.resourceVersion');
    }
    m.preconditions = p;
  }
  const orphan = jsonBool(j.orphanDependents, 'orphanDependents');
  if (orphan !== undefined) m.orphanDependents = orphan;
  if (j.propagationPolicy !== undefined && j.propagationPolicy !== null) m.propagationPolicy = jsonString(j.propagationPolicy, 'propagationPolicy');
  m.dryRun = jsonStrings(j.dryRun, 'dryRun');
  const ignore = jsonBool(j.ignoreStoreReadErrorWithClusterBreakingPotential, 'ignoreStoreReadErrorWithClusterBreakingPotential');
  if (ignore !== undefined) m.ignoreStoreReadErrorWithClusterBreakingPotential = ignore;
  return m;
}
