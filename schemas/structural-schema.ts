/**
 * A CRD version's openAPIV3Schema compiled for serving custom resources the way kube-apiserver (v1.32) does:
 * pruning of unknown fields, defaulting, OpenAPI validation with kube's error texts, and the uniqueness of set and
 * map lists. Compiled once per schema object.
 */
import type { JSONSchemaProps } from '../lib/openapi/json-schema-props.js';
import { applyDefaults } from './schema-defaulting.js';
import { pruneNonNullableNulls, pruneUnknownFields } from './schema-pruning.js';
import { compileValidator, type SchemaValidator } from './schema-validator.js';
import type { SchemaCause } from './validation-errors.js';
import { mergeModel, type MergeModel } from './merge-strategy.js';
import { compileCrdRules, type CrdRuleProgram } from './cel/crd-rules.js';
import { hasListSetsOrMaps, listSetAndMapViolations } from './list-type-uniqueness.js';

export type { SchemaCause } from './validation-errors.js';

export interface CompiledSchema {
  readonly schema: JSONSchemaProps;
  /** How fields merge (list types, map keys, atomic maps): the model Server-Side Apply works from. */
  readonly mergeModel: MergeModel;
  /** The schema's x-kubernetes-validations rules, compiled (absent without rules, or when they do not compile). */
  readonly rules?: CrdRuleProgram;
  /**
   * Removes, in place, the fields the schema does not declare (apiVersion, kind and metadata of the resource and of
   * embedded resources are kept; x-kubernetes-preserve-unknown-fields subtrees keep unknown fields) and then the
   * null values of fields that are neither nullable nor defaulted. Returns the removed unknown fields' paths, sorted,
   * as kube reports them: `spec.bogus`, `spec.items[0].bogus`.
   */
  prune(obj: unknown): string[];
  /** Fills, in place, the schema's defaults where a field is absent (or null while not nullable). */
  applyDefaults(obj: unknown): void;
  /** Whether the schema declares any default (when not, applyDefaults never changes anything). */
  readonly hasDefaults: boolean;
  /** Validates a whole resource: the causes of kube's 422, in kube's order; [] when valid. */
  validate(obj: unknown): SchemaCause[];
  /**
   * Validates a write through the status subresource as kube does: only `status`, against the schema's
   * `properties.status`, with fields under `status` ([] when the object has no status or the schema no status).
   */
  validateStatus(obj: unknown): SchemaCause[];
  /**
   * The uniqueness violations of the resource's `x-kubernetes-list-type` set and map lists (duplicate items or keys,
   * non-object items of map lists), in kube's order; [] when there are none.
   */
  validateListSetsAndMaps(obj: unknown): SchemaCause[];
}

const compiled = new WeakMap<JSONSchemaProps, CompiledSchema>();

/** The compiled form of a CRD version's openAPIV3Schema (cached per schema object). */
export function compileSchema(schema: JSONSchemaProps): CompiledSchema {
  let c = compiled.get(schema);
  if (!c) {
    c = build(schema);
    compiled.set(schema, c);
  }
  return c;
}

function build(schema: JSONSchemaProps): CompiledSchema {
  const defaulted = hasAnyDefault(schema);
  const listsToCheck = hasListSetsOrMaps(schema);
  // Compiled on the first validation, as kube builds a CRD's serving info on its first request: compiling every
  // schema as its CRD is established made establishing thousands of CRDs take seconds of CPU.
  let validator: SchemaValidator | undefined;
  let statusValidator: SchemaValidator | null | undefined;
  const statusSchema = (): JSONSchemaProps | undefined => {
    const props = schema.properties;
    return props && Object.prototype.hasOwnProperty.call(props, 'status') ? props.status : undefined;
  };
  return {
    schema,
    mergeModel: mergeModel(schema),
    rules: compileCrdRules(schema).program,
    prune(obj) {
      const unknown = pruneUnknownFields(obj, schema, true);
      pruneNonNullableNulls(obj, schema);
      return unknown;
    },
    hasDefaults: defaulted,
    applyDefaults(obj) {
      if (defaulted) applyDefaults(obj, schema); // most schemas have no defaults: skip the walk (hot read path)
    },
    validate(obj) {
      validator ??= compileValidator(schema, true);
      return validator(obj);
    },
    validateStatus(obj) {
      if (statusValidator === undefined) {
        const s = statusSchema();
        statusValidator = s ? compileValidator(s, false) : null;
      }
      if (!statusValidator || typeof obj !== 'object' || obj === null || !Object.prototype.hasOwnProperty.call(obj, 'status')) return [];
      return statusValidator((obj as Record<string, unknown>).status, 'status');
    },
    validateListSetsAndMaps(obj) {
      return listsToCheck ? listSetAndMapViolations(obj, schema) : []; // most schemas have no set or map lists
    },
  };
}

/** Whether any node of the schema declares a default. */
function hasAnyDefault(schema: JSONSchemaProps): boolean {
  const stack: JSONSchemaProps[] = [schema];
  while (stack.length) {
    const s = stack.pop()!;
    if (s.default !== undefined) return true;
    stack.push(...Object.values(s.properties ?? {}));
    if (typeof s.additionalProperties === 'object') stack.push(s.additionalProperties);
    if (s.items) stack.push(s.items);
  }
  return false;
}
