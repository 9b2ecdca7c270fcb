/**
 * Admission rules for the schema of a CRD version (apiextensions.k8s.io/v1 `spec.versions[*].schema.openAPIV3Schema`),
 * as kube-apiserver v1.32 applies them when a CRD is created or updated: the schema must be structural, its defaults
 * must be pruned and validate against their schemas, and the OpenAPI subset and Kubernetes extensions must be used as
 * apiextensions allows. Every violation is returned, with kube's field paths and texts, in kube's order:
 *
 *   1. root rules (status subresource, nullable)       crd-rules/root-schema-rules.ts
 *   2. structural invariants and completeness, sorted   crd-rules/structural-invariants.ts, structural-completeness.ts
 *      — or, when the schema is structural, defaults      crd-rules/default-rules.ts
 *      (both skipped when the schema cannot even be converted to its structural form: crd-rules/structural-conversion.ts)
 *   3. the OpenAPI rules of every node                   crd-rules/openapi-schema-rules.ts
 *   4. the conversion error, only when nothing else was found.
 *
 * x-kubernetes-validations (CEL) rules are not checked here.
 */
import type { SchemaCause } from './validation-errors.js';
import { defaultViolations } from './crd-rules/default-rules.js';
import * as fe from './crd-rules/field-errors.js';
import { openAPISchemaViolations } from './crd-rules/openapi-schema-rules.js';
import { allRequirements, type CrdSchemaRequirements } from './crd-rules/ratcheting.js';
import { rootSchemaViolations } from './crd-rules/root-schema-rules.js';
import { isNode } from './crd-rules/schema-node.js';
import { structuralCompleteness } from './crd-rules/structural-completeness.js';
import { structuralConversionError } from './crd-rules/structural-conversion.js';
import { structuralInvariants } from './crd-rules/structural-invariants.js';

export { allRequirements, requirementsForUpdate, type CrdSchemaRequirements } from './crd-rules/ratcheting.js';

export interface CrdSchemaOptions extends CrdSchemaRequirements {
  /** The version (any version, for a schema shared by all) has the status subresource. */
  statusEnabled: boolean;
}

/** The structural-schema violations, sorted by their text as kube sorts them. */
function structuralViolations(schema: Record<string, unknown>, fieldPath: string): SchemaCause[] {
  const out: SchemaCause[] = [];
  structuralInvariants(schema, 'root', fieldPath, out);
  structuralCompleteness(schema, fieldPath, out);
  const text = (c: SchemaCause) => fe.errorText(c);
  return out.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

/**
 * Every violation of kube's CRD schema rules in `schema`, the openAPIV3Schema at `fieldPath`
 * (`spec.versions[0].schema.openAPIV3Schema`, or `spec.validation.openAPIV3Schema` for a schema all versions share).
 */
export function validateCrdSchema(schema: unknown, fieldPath: string, options: Partial<CrdSchemaOptions> = {}): SchemaCause[] {
  const opts: CrdSchemaOptions = { ...allRequirements, statusEnabled: false, ...options };
  if (!isNode(schema)) return [fe.invalid(fieldPath, schema, 'must be an object')];
  const causes = rootSchemaViolations(schema, fieldPath, opts.statusEnabled);
  const conversionError = structuralConversionError(schema);
  if (!conversionError) {
    const structural = structuralViolations(schema, fieldPath);
    causes.push(...(structural.length ? structural : defaultViolations(schema, fieldPath, opts)));
  }
  causes.push(...openAPISchemaViolations(schema, fieldPath, opts));
  if (causes.length === 0 && conversionError) causes.push(fe.invalid(fieldPath, '', conversionError));
  return causes;
}
