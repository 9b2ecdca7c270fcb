/**
 * Validation of custom resources against a CRD version's openAPIV3Schema, as kube-apiserver v1.32 does it: the schema
 * is translated to an ajv schema of kube-openapi keywords (validation-keywords.ts), compiled once, and the violations
 * are ordered, de-duplicated and rendered as kube's StatusCauses.
 */
import AjvModule from 'ajv';
import type { JSONSchemaProps } from '../lib/openapi/json-schema-props.js';
import { effectiveFormat, formatValidator } from './string-formats.js';
import { openAPIMessage, toCause, type SchemaCause } from './validation-errors.js';
import {
  addKubeKeywords,
  collectFindings,
  type ArrayRule,
  type CompositeRule,
  type NumberRule,
  type ObjectRule,
  type SizeRule,
  type StringRule,
  type TypeRule,
} from './validation-keywords.js';
import { compareKeys, pathSteps, stepsKey, validatorName } from './violation-order.js';

const Ajv = AjvModule.default;

type AjvSchema = Record<string, unknown>;

function defined<T extends object>(o: T): T | undefined {
  return Object.values(o).some((v) => v !== undefined) ? o : undefined;
}

/** The metadata of a resource root: kube only lets a CRD constrain metadata.name and metadata.generateName. */
function rootMetadata(s: JSONSchemaProps): JSONSchemaProps {
  const properties: Record<string, JSONSchemaProps> = {};
  for (const name of ['name', 'generateName']) {
    const p = s.properties?.[name];
    if (p) properties[name] = p;
  }
  return { ...(s.type ? { type: s.type } : {}), ...(Object.keys(properties).length ? { properties } : {}) };
}

/** Translates one schema node to ajv keywords. */
export function toAjvSchema(s: JSONSchemaProps, isResourceRoot = false): AjvSchema {
  const out: AjvSchema = {};
  const types = s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [];
  const format = effectiveFormat(s.format);
  if (types.length || format) out['x-kapi-type'] = { types, nullable: s.nullable === true, format } satisfies TypeRule;

  const composite: CompositeRule = {
    anyOf: s.anyOf?.length ? s.anyOf.map((x) => toAjvSchema(x)) : undefined,
    oneOf: s.oneOf?.length ? s.oneOf.map((x) => toAjvSchema(x)) : undefined,
    allOf: s.allOf?.length ? s.allOf.map((x) => toAjvSchema(x)) : undefined,
    not: s.not ? toAjvSchema(s.not) : undefined,
  };
  if (defined(composite)) out['x-kapi-composite'] = composite;

  const string: StringRule = { maxLength: s.maxLength, minLength: s.minLength, pattern: s.pattern || undefined };
  if (defined(string)) out['x-kapi-string'] = string;
  if (format && formatValidator(format)) out['x-kapi-format'] = { format };

  const number: NumberRule = {
    multipleOf: s.multipleOf,
    minimum: s.minimum,
    maximum: s.maximum,
    exclusiveMinimum: s.minimum !== undefined ? s.exclusiveMinimum : undefined,
    exclusiveMaximum: s.maximum !== undefined ? s.exclusiveMaximum : undefined,
  };
  if (defined(number)) out['x-kapi-number'] = number;

  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) out.items = toAjvSchema(s.items);
  const array: ArrayRule = { minItems: s.minItems, maxItems: s.maxItems, uniqueItems: s.uniqueItems || undefined };
  if (defined(array)) out['x-kapi-array'] = array;

  if (Array.isArray(s.enum) && s.enum.length) out['x-kapi-enum'] = { values: s.enum };

  const object: AjvSchema = {};
  if (s.properties) {
    const properties: Record<string, AjvSchema> = {};
    for (const [name, p] of Object.entries(s.properties)) {
      properties[name] = toAjvSchema(isResourceRoot && name === 'metadata' ? rootMetadata(p) : p);
    }
    object.properties = properties;
  }
  const rule: ObjectRule = {
    closed: s.additionalProperties === false ? Object.keys(s.properties ?? {}) : undefined,
    required: s.required?.length ? s.required : undefined,
  };
  if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) {
    object.additionalProperties = toAjvSchema(s.additionalProperties);
  }
  if (defined(rule)) object['x-kapi-object'] = rule;

  const size: SizeRule = { minProperties: s.minProperties, maxProperties: s.maxProperties };
  if (defined(size)) {
    out['x-kapi-size'] = size;
    // kube-openapi stops validating an object whose size is out of bounds: its properties only count when it passes
    if (Object.keys(object).length) {
      out.if = { ...(size.minProperties !== undefined ? { minProperties: size.minProperties } : {}), ...(size.maxProperties !== undefined ? { maxProperties: size.maxProperties } : {}) };
      out.then = object;
    }
  } else {
    Object.assign(out, object);
  }
  return out;
}

function newAjv(): InstanceType<typeof Ajv> {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, meta: false, messages: false, ownProperties: true, code: { optimize: false } });
  addKubeKeywords(ajv);
  return ajv;
}

/** A compiled validator: the causes of kube's 422 for a value, fields prefixed with `basePath` (nil when ''). */
export type SchemaValidator = (value: unknown, basePath?: string) => SchemaCause[];

/** Compiles a schema (a resource root when `isResourceRoot`) into a validator. */
export function compileValidator(schema: JSONSchemaProps, isResourceRoot: boolean): SchemaValidator {
  // one ajv instance per compiled schema, so that nothing outlives the schema (ajv caches what it compiles)
  const validate = newAjv().compile(toAjvSchema(schema, isResourceRoot));
  return (value, basePath = '') => {
    const errors = collectFindings(validate, value);
    if (errors.length === 0) return [];
    // each error's path is read once, for its order key and its name (errorKey and errorSteps in one)
    const keyed = errors.map((e) => {
      const steps = pathSteps(e.schemaPath, e.instancePath);
      return { e, steps, key: [...stepsKey(steps), ...e.params.k] };
    });
    keyed.sort((a, b) => compareKeys(a.key, b.key));
    const seen = new Set<string>();
    const causes: SchemaCause[] = [];
    for (const { e, steps } of keyed) {
      const name = validatorName(e.params.steps ? [...steps, ...e.params.steps] : steps);
      const text = openAPIMessage(e.params.v, name);
      if (seen.has(text)) continue; // kube-openapi reports a message once
      seen.add(text);
      causes.push(toCause(e.params.v, name, basePath));
    }
    return causes;
  };
}
