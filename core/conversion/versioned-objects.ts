import { apiVersionOf, storageVersion, type KubeObject, type ResourceType } from '../contracts/resource-type.js';
import { compileSchema, type CompiledSchema } from '../../schemas/structural-schema.js';
import type { MaybePromise } from '../contracts/object-converter.js';
import { converterFor } from './converters.js';

/**
 * Objects between storage and a request, as kube-apiserver moves them: every object is stored in the resource's
 * storage version; a stored object is defaulted by the schema of the version it is stored in, then converted to the
 * version the request addressed. Synchronous unless a conversion webhook has to be called.
 */

/** A stored object with its stored version's schema defaults (a copy when there are any: objects may be shared). */
export function withReadDefaults(rt: ResourceType, obj: KubeObject): KubeObject {
  if (!rt.defaultOnRead) return obj;
  const compiled = defaultingSchema(rt, obj.apiVersion);
  if (!compiled) return obj;
  const copy = structuredClone(obj);
  compiled.applyDefaults(copy);
  return copy;
}

/** A stored object as the request's `version` presents it. */
export function toRequestVersion(rt: ResourceType, version: string, obj: KubeObject): MaybePromise<KubeObject> {
  return converterFor(rt).convertObject(withReadDefaults(rt, obj), apiVersionOf(rt.group, version));
}

/**
 * toRequestVersion for an object that is only read (encoded into a response), never changed: the object itself when
 * converting it would only copy it (no defaults to apply, already in the requested version and kind, strategy None).
 * A 50,000-item list then builds no copy per item, garbage whose collection held the event loop.
 */
export function toRequestVersionToRead(rt: ResourceType, version: string, obj: KubeObject): MaybePromise<KubeObject> {
  const unchanged =
    obj.kind === rt.names.kind &&
    obj.apiVersion === apiVersionOf(rt.group, version) &&
    converterFor(rt).synchronous &&
    !(rt.defaultOnRead && defaultingSchema(rt, obj.apiVersion));
  return unchanged ? obj : toRequestVersion(rt, version, obj);
}

/** Stored objects (a list's items) as the request's `version` presents them; what needs a webhook goes in one call. */
export function listToRequestVersion(rt: ResourceType, version: string, items: readonly KubeObject[]): MaybePromise<KubeObject[]> {
  const defaulted = rt.defaultOnRead ? items.map((o) => withReadDefaults(rt, o)) : items;
  return converterFor(rt).convertList(defaulted, apiVersionOf(rt.group, version));
}

/** Whether conversions to a request version never wait (no webhook): then list items may be converted one by one. */
export function convertsSynchronously(rt: ResourceType): boolean {
  return converterFor(rt).synchronous;
}

/** An object about to be written (in the request's version) in the storage version. */
export function toStorageVersion(rt: ResourceType, obj: KubeObject): MaybePromise<KubeObject> {
  return converterFor(rt).convertObject(obj, rt.storedAs?.apiVersion ?? apiVersionOf(rt.group, storageVersion(rt).name));
}

/** Per resource type and apiVersion: the compiled schema when it has defaults, else null (looked up once: reads are hot). */
const defaultingSchemas = new WeakMap<ResourceType, Map<string | undefined, CompiledSchema | null>>();

function defaultingSchema(rt: ResourceType, apiVersion: string | undefined): CompiledSchema | null {
  let byVersion = defaultingSchemas.get(rt);
  if (!byVersion) defaultingSchemas.set(rt, (byVersion = new Map()));
  let compiled = byVersion.get(apiVersion);
  if (compiled === undefined) {
    const version = apiVersion ? apiVersion.slice(apiVersion.lastIndexOf('/') + 1) : '';
    const schema = rt.versions.find((v) => v.name === version)?.schema;
    const candidate = schema ? compileSchema(schema) : undefined;
    compiled = candidate?.hasDefaults ? candidate : null;
    byVersion.set(apiVersion, compiled);
  }
  return compiled;
}
