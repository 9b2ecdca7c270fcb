import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import YAML from 'yaml';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { StatusCause } from '../../core/contracts/status.js';
import { errors, fieldErrors } from '../../core/contracts/api-error.js';
import { goDecode } from '../../lib/go/json-decoding.js';
import { nameIsDNSSubdomain } from '../../lib/k8s/names.js';
import { validateAnnotations, validateLabels } from '../../lib/k8s/labels.js';
import { validateFinalizers } from '../../lib/k8s/finalizers.js';
import { staticManifestSuffix } from '../../builtin/admissionregistration/static-manifest-names.js';
import type { LoadedManifests, StaticManifestKind, StaticManifestPlugin } from './static-manifest-plugin.js';

/** The one API version of the admission kinds kube loads from manifests. */
const manifestApiVersion = 'admissionregistration.k8s.io/v1';

/** A loaded directory: its objects, and a hash of its files' contents (a reload of the same files changes nothing). */
export interface LoadedDirectory {
  objects: LoadedManifests;
  hash: string;
}

/** The direct-child .yaml, .yml and .json files of `dir` (subdirectories and other files ignored), by name. */
function manifestFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new Error(`failed to read manifest directory "${dir}": ${(err as Error).message}`);
  }
  return entries
    .filter((e) => !e.isDirectory() && ['.yaml', '.yml', '.json'].includes(extname(e.name).toLowerCase()))
    .map((e) => e.name)
    .sort()
    .map((name) => join(dir, name));
}

/** The documents of a file: YAML (several, `---`-separated) or JSON; duplicate keys refused (strict decoding). */
function documents(text: string): unknown[] {
  return YAML.parseAllDocuments(text, { uniqueKeys: true, logLevel: 'silent' }).flatMap((doc) => {
    if (doc.errors.length) throw new Error(doc.errors[0].message);
    const value: unknown = doc.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

/** kube's ValidateObjectMeta of a new cluster-scoped object, with the DNS-subdomain rule for its name. */
function metadataCauses(obj: KubeObject): StatusCause[] {
  const meta = obj.metadata ?? {};
  const causes: StatusCause[] = [];
  for (const msg of nameIsDNSSubdomain(meta.name ?? '', false)) causes.push(fieldErrors.invalid('metadata.name', meta.name, msg));
  if (meta.namespace) causes.push(fieldErrors.forbidden('metadata.namespace', 'not allowed on this type'));
  causes.push(...validateLabels(meta.labels, 'metadata.labels'), ...validateAnnotations(meta.annotations, 'metadata.annotations'));
  causes.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  return causes;
}

/**
 * One object as an API create of it would take it: decoded into its Go type, strictly (unknown fields refused),
 * defaulted by its strategy, validated by its kind's validation; then kube's manifest rules (the reserved name
 * suffix, the kind's restrictions). Returns the object to put in force.
 */
function decodeObject(kind: StaticManifestKind, obj: KubeObject): KubeObject {
  const { rt } = kind;
  const label = `${rt.names.kind} ${JSON.stringify(obj.metadata?.name ?? '')}`;
  const decoded = rt.goType ? goDecode(obj, rt.goType) : { unknownFields: [] };
  if (decoded.error !== undefined) throw new Error(`${label}: ${decoded.error}`);
  const unknown = decoded.unknownFields;
  if (unknown.length) throw new Error(`${label}: strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  // what a create sets: system metadata (each load is a new object: compiled anew), then the kind's defaults
  const meta = (obj.metadata ??= {});
  meta.uid = randomUUID();
  meta.generation = 1;
  rt.strategy?.prepareForCreate?.(obj);
  const name = meta.name ?? '';
  const causes = [...metadataCauses(obj), ...kind.validate(obj)];
  if (causes.length) throw new Error(errors.invalid({ group: rt.group, resource: rt.names.plural, kind: rt.names.kind, name }, causes).message);
  const restricted = kind.restriction?.(obj);
  if (restricted) throw new Error(restricted);
  return obj;
}

/**
 * Loads a plugin's static manifests directory as kube does (KEP-5793): every object one of the plugin's kinds in
 * admissionregistration.k8s.io/v1 (or in a v1 List), named with the reserved suffix, unique per kind, valid as an API
 * create; then the plugin's checks across the set. Throws an Error naming the file on the first problem.
 */
export function loadManifestDirectory(dir: string, plugin: StaticManifestPlugin): LoadedDirectory {
  const hash = createHash('sha256');
  const found = new Map<string, Map<string, KubeObject>>(plugin.kinds.map((k) => [k.rt.names.kind, new Map()]));
  const seen = new Map<string, string>();
  for (const file of manifestFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    if (text === '') continue;
    hash.update(text).update('\0');
    const add = (value: unknown): void => {
      const obj = value as KubeObject;
      const gvk = `${String(obj?.apiVersion ?? '')}, Kind=${String(obj?.kind ?? '')}`;
      if (obj?.apiVersion === 'v1' && obj.kind === 'List') {
        for (const item of (obj.items as unknown[] | undefined) ?? []) add(item);
        return;
      }
      const kind = obj?.apiVersion === manifestApiVersion ? plugin.kinds.find((k) => k.rt.names.kind === obj.kind) : undefined;
      if (!kind) throw new Error(`unsupported resource type ${gvk}`);
      const name = String(obj.metadata?.name ?? '');
      if (!name) throw new Error(`resource in file "${file}" must have a name`);
      if (!name.endsWith(staticManifestSuffix)) throw new Error(`"${name}" in file "${file}" must have a name ending with "${staticManifestSuffix}"`);
      const key = `${obj.kind}/${name}`;
      if (seen.has(key)) throw new Error(`duplicate name "${name}" found in file "${file}" (previously seen in "${seen.get(key)}")`);
      seen.set(key, file);
      found.get(kind.rt.names.kind)!.set(name, decodeObject(kind, obj));
    };
    try {
      for (const doc of documents(text)) add(doc);
    } catch (err) {
      throw new Error(`error loading ${file}: ${(err as Error).message}`);
    }
  }
  const objects = new Map([...found].map(([kind, byName]) => [kind, new Map([...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))]));
  const refused = plugin.checkSet?.(objects);
  if (refused) throw new Error(refused);
  return { objects, hash: hash.digest('hex') };
}
