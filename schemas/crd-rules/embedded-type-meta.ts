/**
 * The TypeMeta of embedded resources in a value (x-kubernetes-embedded-resource), as kube-apiserver v1.32 checks it
 * (apiextensions-apiserver schema/objectmeta Validate, validateEmbeddedResource): apiVersion and kind are required
 * non-empty strings, the apiVersion a group/version, the kind a DNS-1035 label in any case.
 * Not done: the embedded ObjectMeta (metadata) itself.
 */
import type { SchemaCause } from '../validation-errors.js';
import * as fe from './field-errors.js';
import { additionalSchema, child, compareKeys, flag, hasAdditional, index, isNode, itemsSchema, key, mapValue, type SchemaNode } from './schema-node.js';

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** apimachinery's IsDNS1035Label. */
function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(value)) errs.push(`${DNS1035_LABEL_MSG} (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL_FMT}')`);
  return errs;
}

function embeddedResource(path: string, x: Record<string, unknown>, out: SchemaCause[]): void {
  if (!Object.prototype.hasOwnProperty.call(x, 'apiVersion')) out.push(fe.required(child(path, 'apiVersion')));
  if (!Object.prototype.hasOwnProperty.call(x, 'kind')) out.push(fe.required(child(path, 'kind')));
  for (const k of Object.keys(x).sort(compareKeys)) {
    const v = x[k];
    if (k === 'apiVersion') {
      if (typeof v !== 'string') out.push(fe.invalid(child(path, k), v, 'must be a string'));
      else if (v === '') out.push(fe.invalid(child(path, k), v, 'must not be empty'));
      else if (v !== '/' && (v.match(/\//g) ?? []).length > 1) out.push(fe.invalid(child(path, k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') out.push(fe.invalid(child(path, k), v, 'must be a string'));
      else if (v === '') out.push(fe.invalid(child(path, k), v, 'must not be empty'));
      else {
        const errs = isDNS1035Label(v.toLowerCase());
        if (errs.length) out.push(fe.invalid(child(path, k), v, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
      }
    }
  }
}

function visit(path: string, x: unknown, s: SchemaNode | undefined, embedded: boolean, out: SchemaCause[]): void {
  if (!s) return;
  if (isNode(x)) {
    if (embedded || flag(s, 'x-kubernetes-embedded-resource')) embeddedResource(path, x, out);
    for (const k of Object.keys(x).sort(compareKeys)) {
      const prop = mapValue(s, 'properties', k);
      if (prop) visit(child(path, k), x[k], prop, false, out);
      else if (hasAdditional(s)) visit(key(path, k), x[k], additionalSchema(s), false, out);
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => visit(index(path, i), v, itemsSchema(s), false, out));
  }
}

/** The TypeMeta violations of the embedded resources in `value` (itself one when `isResourceRoot`). */
export function embeddedTypeMetaViolations(path: string, value: unknown, schema: SchemaNode, isResourceRoot: boolean): SchemaCause[] {
  const out: SchemaCause[] = [];
  visit(path, value, schema, isResourceRoot, out);
  return out;
}
