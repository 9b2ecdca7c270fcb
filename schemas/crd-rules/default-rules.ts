/**
 * The defaults of a CRD schema, as kube-apiserver v1.32 checks them once the schema is structural
 * (apiextensions-apiserver schema/defaulting ValidateDefaults): a default must not carry fields its schema prunes, and
 * must validate against its schema. The root is a resource (its apiVersion, kind and metadata are kept), like every
 * x-kubernetes-embedded-resource; defaults under additionalProperties are not visited.
 *
 * The TypeMeta of embedded resources in a default is checked (crd-rules/embedded-type-meta.ts). Not done: kube also
 * coerces and validates their ObjectMeta ("must result in valid metadata"), and runs x-kubernetes-validations rules
 * on defaults (CEL).
 */
import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { pruneUnknownFields } from '../schema-pruning.js';
import { compileValidator } from '../schema-validator.js';
import type { SchemaCause } from '../validation-errors.js';
import { embeddedTypeMetaViolations } from './embedded-type-meta.js';
import * as fe from './field-errors.js';
import { child, entries, field, flag, itemsSchema, key, type SchemaNode } from './schema-node.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

export interface DefaultOptions {
  /** Defaults must not have fields their schema prunes (kube ratchets this off for CRDs that already had such). */
  requirePrunedDefaults: boolean;
}

function validateAgainstSchema(s: SchemaNode, value: unknown, path: string): SchemaCause[] {
  try {
    return compileValidator(s as JSONSchemaProps, false)(value, path);
  } catch {
    return []; // a schema the validator cannot compile is reported by the other rules
  }
}

function visit(s: SchemaNode, path: string, embedded: boolean, insideMeta: boolean, opts: DefaultOptions, out: SchemaCause[]): void {
  if (embedded) insideMeta = false;
  const value = field(s, 'default');
  if (value !== undefined) {
    const defaultPath = child(path, 'default');
    if (!insideMeta && opts.requirePrunedDefaults) {
      const pruned = structuredClone(value);
      pruneUnknownFields(pruned, s as JSONSchemaProps, embedded);
      if (!isDeepStrictEqual(pruned, value)) out.push(fe.invalid(defaultPath, value, 'must not have unknown fields'));
    }
    // kube reports the metadata of embedded resources, or else what the schema validation finds
    const typeMeta = insideMeta ? [] : embeddedTypeMetaViolations(defaultPath, value, s, embedded);
    out.push(...(typeMeta.length ? typeMeta : validateAgainstSchema(s, value, defaultPath)));
  }
  const items = itemsSchema(s);
  if (items) visit(items, child(path, 'items'), flag(items, 'x-kubernetes-embedded-resource'), insideMeta, opts, out);
  for (const [k, p] of entries(s, 'properties')) {
    const subInsideMeta = insideMeta || (embedded && META_FIELDS.has(k));
    visit(p, key(child(path, 'properties'), k), flag(p, 'x-kubernetes-embedded-resource'), subInsideMeta, opts, out);
  }
}

/** ValidateDefaults for a CRD version's (structural) openAPIV3Schema at `path`. */
export function defaultViolations(schema: SchemaNode, path: string, opts: DefaultOptions): SchemaCause[] {
  const out: SchemaCause[] = [];
  visit(schema, path, true, false, opts, out);
  return out;
}
