import type { KubeObject, ObjectMeta } from '../contracts/resource-type.js';
import type { StatusCause } from '../contracts/status.js';
import { errors } from '../contracts/api-error.js';
import { validateAnnotations, validateLabels } from '../../lib/k8s/labels.js';
import { isGoInt } from '../../lib/go/go-values.js';
import { gvkString, groupVersionString, parseGroupVersion } from './group-version-kind.js';
import { unmarshalValueError } from '../../lib/go/json-errors.js';

/**
 * One object a conversion webhook returned for `original`, checked as kube-apiserver checks it: it must decode as an
 * object with a kind, be in the desired group/version, keep kind, name, namespace and uid; its metadata is then the
 * original's again, except labels and annotations, which the webhook may change (kube's restoreObjectMeta: other
 * metadata changes are silently undone). Throws the 500 kube answers with, naming the original's group/version/kind.
 */
export function acceptConvertedObject(original: KubeObject, returned: unknown, desiredAPIVersion: string): KubeObject {
  const subject = `conversion webhook for ${gvkString(original.apiVersion, original.kind)}`;
  const converted = decodeUnstructured(returned);
  const expected = groupVersionString(parseGroupVersion(desiredAPIVersion));
  const received = groupVersionString(parseGroupVersion(converted.apiVersion));
  if (expected !== received) {
    throw errors.unknown(`${subject} returned invalid object at index 0: invalid groupVersion (expected ${expected}, received ${received})`);
  }
  const kind = stringField(original, 'kind');
  if (kind !== stringField(converted, 'kind')) {
    throw errors.unknown(`${subject} returned invalid object at index 0: invalid kind (expected ${kind}, received ${stringField(converted, 'kind')})`);
  }
  const changed = changedIdentity(original, converted);
  if (changed) throw errors.unknown(`${subject} returned invalid object: ${changed}`);
  try {
    converted.metadata = restoredMetadata(original.metadata, converted);
  } catch (err) {
    if (err instanceof MetadataError) throw errors.unknown(`${subject} returned invalid metadata: ${err.message}`);
    throw err;
  }
  return converted;
}

/** A returned object as Unstructured decodes it: a JSON object with a kind (the error is kube's, unprefixed). */
function decodeUnstructured(value: unknown): KubeObject {
  if (Array.isArray(value) || (value !== null && typeof value !== 'object')) throw errors.unknown(unmarshalValueError(value, 'map[string]interface {}'));
  const obj = value as KubeObject | null;
  if (!obj || stringField(obj, 'kind') === '') throw errors.unknown(`Object 'Kind' is missing in '${JSON.stringify(value)}'`);
  return obj;
}

function stringField(obj: Record<string, unknown> | undefined, field: string): string {
  const v = obj?.[field];
  return typeof v === 'string' ? v : '';
}

function metaField(obj: KubeObject, field: string): string {
  const meta = obj.metadata;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? stringField(meta, field) : '';
}

/** kube's validateConvertedObject (its kind check already passed): what must not change, or undefined. */
function changedIdentity(original: KubeObject, converted: KubeObject): string | undefined {
  for (const [field, label] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    const a = metaField(original, field);
    const b = metaField(converted, field);
    if (a !== b) return `must have the same ${label}: ${a} != ${b}`;
  }
  return undefined;
}

class MetadataError extends Error {}

/** kube's restoreObjectMeta: a copy of the original metadata with the returned labels and annotations. */
function restoredMetadata(original: ObjectMeta | undefined, converted: KubeObject): ObjectMeta {
  if (!('metadata' in converted)) throw new MetadataError('missing metadata in converted object');
  const returned = converted.metadata as unknown;
  if (!isMap(returned)) throw new MetadataError(`invalid metadata of type ${goType(returned)} in converted object`);
  const restored: ObjectMeta = original === undefined ? {} : structuredClone(original);
  for (const field of ['labels', 'annotations'] as const) {
    const value = returned[field];
    if (value === undefined || value === null) {
      delete restored[field];
      continue;
    }
    if (!isMap(value)) throw new MetadataError(`invalid metadata.${field} of type ${goType(value)} in converted object`);
    const before = (restored[field] ?? {}) as Record<string, unknown>;
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') throw new MetadataError(`metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`);
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const strings = value as Record<string, string>;
      // kube validates changed annotations under the path "metadata.annotation".
      const causes = field === 'labels' ? validateLabels(strings, 'metadata.labels') : validateAnnotations(strings, 'metadata.annotation');
      if (causes.length) throw new MetadataError(aggregate(causes));
    }
    restored[field] = value as Record<string, string>;
  }
  return restored;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Go's %T of a value Unstructured decoded from JSON. */
function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return isGoInt(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** apimachinery's utilerrors.NewAggregate(field errors).Error(): one message bare, several (deduplicated) in brackets. */
function aggregate(causes: StatusCause[]): string {
  const messages = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message}` : (c.message ?? ''))))];
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

