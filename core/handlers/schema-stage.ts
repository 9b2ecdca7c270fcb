import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { pruneUnknownObjectMetaFields } from '../../schemas/object-meta-fields.js';
import { compileSchema, type CompiledSchema } from '../../schemas/structural-schema.js';
import { ratchet } from '../../schemas/ratcheting.js';
import { embeddedResourceCauses } from '../validation/embedded-resources.js';
import { celRulesSkippedCause } from '../../schemas/cel/crd-rules.js';
import { errors, type ApiError, type StatusCause } from '../contracts/api-error.js';
import { boundedTexts } from '../contracts/bounded-status.js';
import { scaleSpecCauses, scaleStatusCauses } from '../validation/scale-subresource.js';
import { schemaTyped, type KubeObject } from '../contracts/resource-type.js';
import type { WriteAttributes } from '../rest/write-pipeline.js';
import type { ResourceScope } from './request-scope.js';
import { parseFieldValidation } from './query-options.js';
import { addWarnings } from './warnings.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** What the strict decoding of a write's body found besides what a custom resource's schema prunes. */
export interface StrictFindings {
  /** The strict decoding errors of the unknown fields a built-in kind's Go type dropped (`unknown field "spec.x"`). */
  unknown?: string[];
  /** Paths of the fields the body repeats. */
  duplicates?: string[];
}

/** The answer refusing a body with strict decoding errors under Strict, given `strict decoding error: …`. */
export type StrictRefusal = (message: string) => ApiError;

/**
 * Unknown or duplicate fields: kube's strict decoding error under Strict (listing them within kapi's bounds: the first
 * 100, then `and N more errors`), warnings under Warn, nothing under Ignore. Strict refuses with kube's 400
 * (`Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"`) unless
 * the caller answers otherwise (a patch: its 422).
 */
function fieldProblems(messages: string[], fieldValidation: FieldValidation, { kind, version }: { kind: string; version: string }, refuse?: StrictRefusal): string[] {
  if (messages.length && fieldValidation === 'Strict') {
    const message = `strict decoding error: ${boundedTexts(messages).join(', ')}`;
    throw refuse ? refuse(message) : errors.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${message}`);
  }
  return fieldValidation === 'Warn' ? messages : [];
}

/** kube's strict JSON decoder's error for each unknown field. */
export function unknownFieldMessages(paths: readonly string[]): string[] {
  return paths.map((path) => `unknown field "${path}"`);
}

function duplicateFieldMessages(paths: readonly string[]): string[] {
  return paths.map((path) => `duplicate field "${path}"`);
}

/**
 * Decodes a custom resource against its version's schema as kube-apiserver's decoder does, in place: drops unknown
 * metadata fields, prunes unknown fields (and non-nullable nulls without default), then applies defaults.
 *
 * Unknown fields (`metadata.*` first, then the schema's, sorted) are handled per fieldValidation (see fieldProblems):
 * Strict refuses the object, Warn returns one warning per field (`unknown field "spec.bogus"`), Ignore drops them
 * silently. Without a schema only metadata is checked.
 */
export function decodeCustomResource(
  obj: KubeObject,
  schema: JSONSchemaProps | undefined,
  fieldValidation: FieldValidation,
  kindLabel: { kind: string; version: string },
  duplicates: string[] = [],
  refuse?: StrictRefusal,
): { warnings: string[] } {
  const compiled = schema ? compileSchema(schema) : undefined;
  const unknown = [...pruneUnknownObjectMetaFields(obj.metadata), ...(compiled?.prune(obj) ?? [])];
  const warnings = fieldProblems([...unknownFieldMessages(unknown), ...duplicateFieldMessages(duplicates)], fieldValidation, kindLabel, refuse);
  compiled?.applyDefaults(obj);
  return { warnings };
}

/**
 * The set and map list uniqueness causes of a write (the whole object, for the status subresource too). kube ratchets
 * them all or nothing: an update is not checked when the object it replaces already breaks uniqueness anywhere.
 */
function listCauses(compiled: CompiledSchema, object: KubeObject, oldObject: KubeObject | undefined): StatusCause[] {
  const found = compiled.validateListSetsAndMaps(object);
  if (found.length && oldObject && compiled.validateListSetsAndMaps(oldObject).length) return [];
  return found;
}

/**
 * The schema causes of a write of a custom resource (kube's 422 causes; [] when valid or not a custom resource):
 * the whole object for the main resource, only `status` (against the status schema) for the status subresource;
 * on update, errors about values the update did not change are ratcheted away. Then, as kube orders them, the
 * scale subresource's replicas and selector fields, the uniqueness of set and map lists, and the CEL rules.
 * The validation stage merges them with the ObjectMeta causes into one 422, as kube-apiserver does.
 */
export function customResourceSchemaCauses(attrs: WriteAttributes): StatusCause[] {
  const { rt, subresource, object } = attrs;
  if (!schemaTyped(rt)) return [];
  const version = rt.versions.find((v) => v.name === attrs.version);
  const schema = version?.schema;
  if (!schema) return [];
  const compiled = compileSchema(schema);
  // A write through /scale is a write of the whole object, validated as one (kube's scale updates the main resource).
  const found = subresource === 'status' ? compiled.validateStatus(object) : [...compiled.validate(object), ...embeddedResourceCauses(object, schema)];
  const schemaCauses = attrs.oldObject && found.length ? ratchet(found, object, attrs.oldObject) : found;
  const scale = version.subresources?.scale;
  const scaleCauses = scale ? [...(subresource === 'status' ? [] : scaleSpecCauses(object, scale)), ...scaleStatusCauses(object, scale)] : [];
  const causes = [...schemaCauses, ...scaleCauses, ...listCauses(compiled, object, attrs.oldObject)];
  if (!compiled.rules) return causes;
  // kube runs the CEL rules only on an object whose schema errors do not block them (the rules ratchet themselves).
  const skipped = celRulesSkippedCause(causes);
  if (skipped) return [...causes, skipped];
  return [...causes, ...compiled.rules.validate(object, attrs.oldObject, { warnings: attrs.warnings })];
}

/**
 * Decodes a write's body as kube does, honouring the request's fieldValidation (its Go type was decoded before, see
 * typed-decoding.ts, which dropped a built-in kind's unknown fields and returned them): custom resources are pruned
 * and defaulted; unknown and duplicate fields are refused (Strict, by `refuse` when given) or go out as
 * `Warning: 299` headers (Warn).
 */
export function decodeForWrite(scope: ResourceScope, obj: KubeObject, found: StrictFindings = {}, refuse?: StrictRefusal): void {
  const fieldValidation = parseFieldValidation(scope.query);
  const label = { kind: scope.rt.names.kind, version: scope.version };
  const { unknown = [], duplicates = [] } = found;
  const warnings = schemaTyped(scope.rt)
    ? decodeCustomResource(obj, scope.versionDef.schema, fieldValidation, label, duplicates, refuse).warnings
    : fieldProblems([...unknown, ...duplicateFieldMessages(duplicates)], fieldValidation, label, refuse);
  addWarnings(scope.ctx, warnings);
}
