import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { fieldErrors, type StatusCause } from '../contracts/api-error.js';
import type { ObjectMeta } from '../contracts/resource-type.js';
import { isDNS1035Label } from '../../lib/k8s/names.js';
import { validateObjectMetaCreate } from './object-meta.js';

type JSONObject = Record<string, unknown>;

function isObject(x: unknown): x is JSONObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * kube's checks of values under `x-kubernetes-embedded-resource: true`: apiVersion and kind are required strings
 * (kind a DNS-1035 label in any case), and metadata, when present, is valid ObjectMeta (its name optional).
 */
export function embeddedResourceCauses(value: unknown, schema: JSONSchemaProps, path = ''): StatusCause[] {
  if (!path && !declaresEmbedded(schema)) return []; // the common case: nothing to walk
  const causes: StatusCause[] = [];
  const at = (child: string) => (path ? `${path}.${child}` : child);
  if (isObject(value)) {
    if (path && schema['x-kubernetes-embedded-resource']) causes.push(...checkResource(value, path));
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (name in value) causes.push(...embeddedResourceCauses(value[name], prop, at(name)));
    }
    const extra = schema.additionalProperties;
    if (typeof extra === 'object') {
      for (const [key, v] of Object.entries(value)) if (!schema.properties?.[key]) causes.push(...embeddedResourceCauses(v, extra, `${path}[${key}]`));
    }
  } else if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => causes.push(...embeddedResourceCauses(item, schema.items!, `${path}[${i}]`)));
  }
  return causes;
}

function checkResource(x: JSONObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!('apiVersion' in x)) causes.push(fieldErrors.required(`${path}.apiVersion`, 'must not be empty'));
  if (!('kind' in x)) causes.push(fieldErrors.required(`${path}.kind`, 'must not be empty'));
  const { apiVersion, kind, metadata } = x;
  if ('apiVersion' in x) {
    if (typeof apiVersion !== 'string') causes.push(fieldErrors.invalid(`${path}.apiVersion`, apiVersion, 'must be a string'));
    else if (!apiVersion) causes.push(fieldErrors.invalid(`${path}.apiVersion`, apiVersion, 'must not be empty'));
    else if (apiVersion.split('/').length > 2) causes.push(fieldErrors.invalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  }
  if ('kind' in x) {
    if (typeof kind !== 'string') causes.push(fieldErrors.invalid(`${path}.kind`, kind, 'must be a string'));
    else if (!kind) causes.push(fieldErrors.invalid(`${path}.kind`, kind, 'must not be empty'));
    else {
      const errs = isDNS1035Label(kind.toLowerCase());
      if (errs.length) causes.push(fieldErrors.invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
    }
  }
  if (isObject(metadata)) {
    const meta = metadata as ObjectMeta;
    // kube validates embedded metadata with a stand-in name when it has none.
    const opts = { namespaced: Boolean(meta.namespace), nameValidator: 'path-segment' } as const;
    for (const c of validateObjectMetaCreate({ ...meta, name: meta.name || 'fakename' }, opts)) {
      causes.push({ ...c, field: `${path}.${c.field}` });
    }
  }
  return causes;
}

const declared = new WeakMap<JSONSchemaProps, boolean>();

/** Whether any node of the schema is an embedded resource (cached per schema). */
function declaresEmbedded(schema: JSONSchemaProps): boolean {
  let found = declared.get(schema);
  if (found === undefined) {
    found = JSON.stringify(schema).includes('"x-kubernetes-embedded-resource":true');
    declared.set(schema, found);
  }
  return found;
}
