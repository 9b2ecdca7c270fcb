import type { StatusCause } from '../../core/contracts/api-error.js';
import { fieldErrors } from '../../core/contracts/api-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../lib/k8s/names.js';
import { isDeepStrictEqual } from 'node:util';
import { allRequirements, requirementsForUpdate, validateCrdSchema, type CrdSchemaOptions, type CrdSchemaRequirements } from '../../schemas/crd-schema-rules.js';
import { compileCrdRules } from '../../schemas/cel/crd-rules.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { Crd, CrdVersion } from './crd-types.js';
import { validateCrdConversion } from './crd-conversion-validation.js';
import { validateApiApproval } from './crd-api-approval.js';

const scopes = ['Cluster', 'Namespaced'];

function str(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

/** kube's CRD rules that apply to the shape of spec (names, group, scope, versions). */
export function validateCrd(crd: Crd, old?: Crd): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = crd.spec;
  if (!spec || typeof spec !== 'object') return [fieldErrors.required('spec')];
  if (!str(spec.group)) causes.push(fieldErrors.required('spec.group'));
  else {
    for (const msg of isDNS1123Subdomain(spec.group)) causes.push(fieldErrors.invalid('spec.group', spec.group, msg));
    if (!spec.group.includes('.')) causes.push(fieldErrors.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  const names = spec.names ?? ({} as Crd['spec']['names']);
  if (!str(names.plural)) causes.push(fieldErrors.required('spec.names.plural'));
  else for (const msg of isDNS1123Label(names.plural)) causes.push(fieldErrors.invalid('spec.names.plural', names.plural, msg));
  if (names.singular) for (const msg of isDNS1123Label(names.singular)) causes.push(fieldErrors.invalid('spec.names.singular', names.singular, msg));
  if (!str(names.kind)) causes.push(fieldErrors.required('spec.names.kind'));
  for (const [i, s] of (names.shortNames ?? []).entries()) {
    for (const msg of isDNS1123Label(s)) causes.push(fieldErrors.invalid(`spec.names.shortNames[${i}]`, s, msg));
  }
  if (str(names.kind) && names.listKind === names.kind) causes.push(fieldErrors.invalid('spec.names.listKind', names.listKind, 'kind and listKind may not be the same'));
  if (str(names.plural) && str(spec.group) && crd.metadata?.name !== `${names.plural}.${spec.group}`) {
    causes.push(fieldErrors.invalid('metadata.name', crd.metadata?.name ?? '', 'must be spec.names.plural+"."+spec.group'));
  }
  if (!scopes.includes(spec.scope)) causes.push(fieldErrors.notSupported('spec.scope', spec.scope ?? '', scopes));
  const requirements = old ? requirementsForUpdate((old.spec?.versions ?? []).map((v) => v?.schema?.openAPIV3Schema)) : allRequirements;
  causes.push(...validateVersions(spec.versions, requirements));
  causes.push(...validateCrdConversion(crd, old));
  if (old) {
    if (old.spec?.scope !== spec.scope) causes.push(fieldErrors.invalid('spec.scope', spec.scope, 'field is immutable'));
    if (old.spec?.group !== spec.group) causes.push(fieldErrors.invalid('spec.group', spec.group, 'field is immutable'));
  }
  causes.push(...validateApiApproval(crd, old));
  return causes;
}

/** A JSON value without its null fields (a null decodes to an unset field, so it does not make schemas differ). */
function withoutNulls(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(withoutNulls);
  if (typeof x !== 'object' || x === null) return x;
  return Object.fromEntries(Object.entries(x).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

/**
 * Whether all versions carry the same schema. kube-apiserver then validates it once, as the internal version's
 * top-level `spec.validation` (the v1 conversion lifts identical per-version schemas there), so its violations are
 * reported under `spec.validation.openAPIV3Schema`; otherwise each under `spec.versions[i].schema.openAPIV3Schema`.
 */
function sharedSchema(versions: CrdVersion[]): boolean {
  if (versions.length < 2) return true;
  const first = withoutNulls(versions[0]?.schema);
  return versions.slice(1).every((v) => isDeepStrictEqual(withoutNulls(v?.schema), first));
}

function hasStatus(v: CrdVersion | undefined): boolean {
  return v?.subresources?.status !== undefined && v.subresources.status !== null;
}

/** Structural rules first; the CEL rules are compiled (and their cost estimated) only on a structural schema, as kube does. */
function validateSchema(schema: JSONSchemaProps, path: string, options: Partial<CrdSchemaOptions>): StatusCause[] {
  const causes = validateCrdSchema(schema, path, options);
  return causes.length ? causes : compileCrdRules(schema, path).errors;
}

function validateVersions(versions: CrdVersion[] | undefined, requirements: CrdSchemaRequirements): StatusCause[] {
  if (!Array.isArray(versions) || versions.length === 0) return [fieldErrors.invalid('spec.versions', [], 'must have exactly one version marked as storage version')];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  const shared = sharedSchema(versions);
  // A version decoded from null has no name: Go's zero value, "".
  const names = versions.map((v) => v.name ?? '');
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    if (!str(v.name)) causes.push(fieldErrors.required(`${path}.name`));
    else {
      for (const msg of isDNS1123Label(v.name)) causes.push(fieldErrors.invalid(`${path}.name`, v.name, msg));
      if (seen.has(v.name)) causes.push(fieldErrors.invalid('spec.versions', names, 'must contain unique version names'));
      seen.add(v.name);
    }
    if (!v.schema?.openAPIV3Schema) causes.push(fieldErrors.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
    else if (!shared) {
      causes.push(...validateSchema(v.schema.openAPIV3Schema, `${path}.schema.openAPIV3Schema`, { ...requirements, statusEnabled: hasStatus(v) }));
    }
  });
  const sharedOpenAPIV3Schema = shared ? versions[0]?.schema?.openAPIV3Schema : undefined;
  if (sharedOpenAPIV3Schema) {
    causes.push(...validateSchema(sharedOpenAPIV3Schema, 'spec.validation.openAPIV3Schema', { ...requirements, statusEnabled: versions.some(hasStatus) }));
  }
  if (versions.filter((v) => v.storage).length !== 1) {
    causes.push(fieldErrors.invalid('spec.versions', names, 'must have exactly one version marked as storage version'));
  }
  if (!versions.some((v) => v.served)) causes.push(fieldErrors.invalid('spec.versions', names, 'must have at least one version marked as served'));
  return causes;
}
