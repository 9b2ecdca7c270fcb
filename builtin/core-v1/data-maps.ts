import { isDeepStrictEqual } from 'node:util';
import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isConfigMapKey } from '../../lib/k8s/names.js';
import { goCompare } from '../../lib/go/strings.js';

/*
 * The key/value maps of ConfigMaps and Secrets (`data`, `binaryData`): kube's key rules, size limit and `immutable`.
 * Values of `map[string][]byte` fields are base64 text in JSON; the Go type check (goType) has accepted them already.
 */

export type DataMap = Record<string, string>;

/** kube's MaxSecretSize, the limit of a ConfigMap's and a Secret's data alike: 1 MiB. */
export const maxDataSize = 1024 * 1024;

/** The map's keys in Go's string order: kube ranges over a Go map (in no order); kapi reports in a stable one. */
export function sortedKeys(map: DataMap | undefined): string[] {
  return Object.keys(map ?? {}).sort(goCompare);
}

/**
 * Rewrites base64 values as Go re-encodes the bytes it decoded: line breaks dropped, padding bits cleared. What is
 * stored and returned is then what kube returns, and equal bytes compare equal.
 */
export function canonicalizeBytes(map: DataMap | undefined): void {
  if (!map) return;
  for (const [key, value] of Object.entries(map)) map[key] = Buffer.from(value, 'base64').toString('base64');
}

/** The number of bytes a canonical base64 value stands for. */
export function byteSize(base64: string): number {
  return Buffer.byteLength(base64, 'base64');
}

/** Drops a map that is empty: the field is `omitempty`, so kube never stores or returns `{}`. */
export function dropIfEmpty(obj: Record<string, unknown>, field: string): void {
  const value = obj[field];
  if (value !== null && typeof value === 'object' && Object.keys(value).length === 0) delete obj[field];
}

/** The causes of an invalid key of `field`, at `<field>[<key>]`, with IsConfigMapKey's texts. */
export function keyCauses(field: string, key: string): StatusCause[] {
  return isConfigMapKey(key).map((msg) => fieldErrors.invalid(`${field}[${key}]`, key, msg));
}

const immutableMessage = 'field is immutable when `immutable` is set';

/**
 * kube's update rule for objects whose old version has `immutable: true`: `immutable` must stay true and none of
 * `fields` may change.
 */
export function immutableCauses(obj: Record<string, unknown>, old: Record<string, unknown>, fields: string[]): StatusCause[] {
  if (old.immutable !== true) return [];
  const causes: StatusCause[] = [];
  if (obj.immutable !== true) causes.push(fieldErrors.forbidden('immutable', immutableMessage));
  for (const field of fields) {
    if (!isDeepStrictEqual(obj[field] ?? {}, old[field] ?? {})) causes.push(fieldErrors.forbidden(field, immutableMessage));
  }
  return causes;
}
