import type { StatusCause } from '../../core/contracts/api-error.js';
import { fieldErrors } from '../../core/contracts/api-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../lib/k8s/names.js';
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
  const groupErrors = str(spec.group) ? isDNS1123Subdomain(spec.group) : [];
  if (!str(spec.group)) causes.push(fieldErrors.required('spec.group'));
  else if (groupErrors.length) causes.push(fieldErrors.invalid('spec.group', spec.group, groupErrors.join(',')));
  else if (!spec.group.includes('.')) causes.push(fieldErrors.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  // as kube validates them: after its defaults (a CRD read from a file or passed in code may not have them yet)
  const given = spec.names ?? ({} as Crd['spec']['names']);
  const names = { ...given, singular: given.singular || given.kind?.toLowerCase(), listKind: given.listKind || (given.kind ? `${given.kind}List` : '') };
  for (const name of ['plural', 'singular', 'kind', 'listKind'] as const) {
    if (!str(names[name])) causes.push(fieldErrors.required(`spec.names.${name}`));
  }
  causes.push(...validateNames(names, 'spec.names'));
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

/**
 * kube's rules for a CRD's names: each a DNS-1035 label, kind and listKind but for their case (messages of one name
 * joined, as kube joins them).
 */
function validateNames(names: Crd['spec']['names'], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const check = (field: string, value: string, prefix = '', label = value) => {
    const errs = isDNS1035Label(label);
    if (errs.length) causes.push(fieldErrors.invalid(`${path}.${field}`, value, prefix + errs.join(',')));
  };
  const mixedCase = 'may have mixed case, but should otherwise match: ';
  // an empty plural, singular, kind or listKind is left to the required checks; list items are checked as they are
  if (str(names.plural)) check('plural', names.plural);
  if (str(names.singular)) check('singular', names.singular);
  if (str(names.kind)) check('kind', names.kind, mixedCase, names.kind.toLowerCase());
  if (str(names.listKind)) check('listKind', names.listKind, mixedCase, names.listKind.toLowerCase());
  (names.shortNames ?? []).forEach((s, i) => check(`shortNames[${i}]`, String(s ?? '')));
  if (str(names.kind) && names.kind === names.listKind) causes.push(fieldErrors.invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => check(`categories[${i}]`, String(c ?? '')));
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
  const shared = sharedSchema(versions);
  // A version decoded from null has no name: Go's zero value, "".
  const names = versions.map((v) => v.name ?? '');
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    // a version is a path segment and a Go identifier's start: a DNS-1035 label, as kube checks it (its messages joined)
    const errs = isDNS1035Label(names[i]!);
    if (errs.length) causes.push(fieldErrors.invalid(`${path}.name`, names[i], errs.join(',')));
    if (!v.schema?.openAPIV3Schema) causes.push(fieldErrors.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
    else if (!shared) {
      causes.push(...validateSchema(v.schema.openAPIV3Schema, `${path}.schema.openAPIV3Schema`, { ...requirements, statusEnabled: hasStatus(v) }));
    }
  });
  const sharedOpenAPIV3Schema = shared ? versions[0]?.schema?.openAPIV3Schema : undefined;
  if (sharedOpenAPIV3Schema) {
    causes.push(...validateSchema(sharedOpenAPIV3Schema, 'spec.validation.openAPIV3Schema', { ...requirements, statusEnabled: versions.some(hasStatus) }));
  }
  if (new Set(names).size !== names.length) causes.push(fieldErrors.invalid('spec.versions', names, 'must contain unique version names'));
  if (versions.filter((v) => v.storage).length !== 1) {
    causes.push(fieldErrors.invalid('spec.versions', names, 'must have exactly one version marked as storage version'));
  }
  if (!versions.some((v) => v.served)) causes.push(fieldErrors.invalid('spec.versions', names, 'must have at least one version marked as served'));
  return causes;
}
