/**
 * metadata.managedFields entries as kube reads them from an object (Unstructured.GetManagedFields): each entry
 * converted to a metav1.ManagedFieldsEntry; if any entry does not convert (not an object, a field of the wrong type,
 * a time that is not RFC 3339) the object counts as having no managedFields at all.
 */
import { formatRFC3339, parseRFC3339 } from '../../lib/go/timestamp.js';
import { isObject } from '../../schemas/structured-merge/json-value.js';

export interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  /** RFC 3339 in UTC with seconds, as metav1.Time writes it. */
  time?: string;
  fieldsType: string;
  /** Absent when null or missing (a nil FieldsV1). */
  fieldsV1?: unknown;
  subresource: string;
}

/** A metav1.Time as written back: the instant in UTC, seconds precision; undefined when Go would not parse it. */
function canonicalTime(s: string): string | undefined {
  const t = parseRFC3339(s);
  return t && formatRFC3339({ seconds: t.seconds, nanos: 0, offset: 0 }, 0);
}

/** Seconds since the epoch of a canonical time (metav1.Time.Unix); 0 when absent. */
export function timeSeconds(time: string | undefined): number {
  return time ? Math.floor(Date.parse(time) / 1000) : 0;
}

function str(v: unknown): string | null {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : null;
}

function convert(o: Record<string, unknown>): ManagedFieldsEntry | undefined {
  const manager = str(o.manager);
  const operation = str(o.operation);
  const apiVersion = str(o.apiVersion);
  const fieldsType = str(o.fieldsType);
  const subresource = str(o.subresource);
  if (manager === null || operation === null || apiVersion === null || fieldsType === null || subresource === null) return undefined;
  const entry: ManagedFieldsEntry = { manager, operation, apiVersion, fieldsType, subresource };
  if (o.time !== undefined && o.time !== null) {
    const time = typeof o.time === 'string' ? canonicalTime(o.time) : undefined;
    if (time === undefined) return undefined;
    entry.time = time;
  }
  if (o.fieldsV1 !== undefined && o.fieldsV1 !== null) entry.fieldsV1 = o.fieldsV1;
  return entry;
}

/** The entries of metadata.managedFields; undefined when absent, null, not a list, or not convertible. */
export function readManagedFields(metadata: unknown): ManagedFieldsEntry[] | undefined {
  const list = isObject(metadata) ? metadata.managedFields : undefined;
  if (!Array.isArray(list)) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const item of list) {
    const e = isObject(item) ? convert(item) : undefined;
    if (!e) return undefined;
    out.push(e);
  }
  return out;
}

/** `[]` or `[{}]` in a request: the client resets managedFields (kube's isResetManagedFields). */
export function isResetManagedFields(entries: ManagedFieldsEntry[] | undefined): boolean {
  if (!entries) return false;
  if (entries.length === 0) return true;
  if (entries.length > 1) return false;
  const e = entries[0];
  return !e.manager && !e.operation && !e.apiVersion && !e.time && !e.fieldsType && e.fieldsV1 === undefined && !e.subresource;
}
