import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { AuditPolicy, AuditPolicyRule } from '../contracts/audit.js';
import { fieldErrors, type FieldError } from '../../lib/k8s/field-errors.js';
import { nameIsDNSSubdomain } from '../../lib/k8s/names.js';

/** kube decodes policies of audit.k8s.io/v1 only (v1alpha1 and v1beta1 were removed in 1.24). */
const policyApiVersion = 'audit.k8s.io/v1';
const levels = ['None', 'Metadata', 'Request', 'RequestResponse'];
const stages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/** A policy that cannot be used; its message is kube's (policy.LoadPolicyFromBytes). */
export class AuditPolicyError extends Error {
  override readonly name = 'AuditPolicyError';
}

/** Reads and checks a policy file as kube-apiserver's `--audit-policy-file`; the error names the file. */
export function loadAuditPolicyFile(path: string): AuditPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new AuditPolicyError(`failed to read file path "${path}": ${(err as Error).message}`);
  }
  try {
    return parseAuditPolicy(text);
  } catch (err) {
    if (err instanceof AuditPolicyError) throw new AuditPolicyError(`${err.message}: from file ${path}`);
    throw err;
  }
}

/** A policy from YAML or JSON text, decoded and validated (throws AuditPolicyError). */
export function parseAuditPolicy(text: string): AuditPolicy {
  const doc = YAML.parseDocument(text, { uniqueKeys: false, logLevel: 'silent' });
  if (doc.errors.length) throw new AuditPolicyError(`failed decoding: ${doc.errors[0]!.message}`);
  return checkAuditPolicy(doc.toJS());
}

/** A policy object, its shape and then its rules checked as kube checks them; the policy itself is returned. */
export function checkAuditPolicy(value: unknown): AuditPolicy {
  if (!isObject(value)) throw new AuditPolicyError("failed decoding: Object 'Kind' is missing");
  if (typeof value.kind !== 'string' || value.kind === '') throw new AuditPolicyError("failed decoding: Object 'Kind' is missing");
  if (typeof value.apiVersion !== 'string' || value.apiVersion === '') throw new AuditPolicyError("failed decoding: Object 'apiVersion' is missing");
  if (value.apiVersion !== policyApiVersion || value.kind !== 'Policy') {
    throw new AuditPolicyError(`failed decoding: no kind "${value.kind}" is registered for version "${value.apiVersion}"`);
  }
  checkShape(value);
  const policy = value as unknown as AuditPolicy;
  const problems = validateAuditPolicy(policy).map((e) => `${e.field}: ${e.message}`);
  if (problems.length === 1) throw new AuditPolicyError(problems[0]!);
  if (problems.length > 1) throw new AuditPolicyError(`[${problems.join(', ')}]`);
  if (!policy.rules?.length) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  return policy;
}

/** kube's validation.ValidatePolicy: the field errors of a decoded policy. */
export function validateAuditPolicy(policy: AuditPolicy): FieldError[] {
  const errs = validateOmitStages(policy.omitStages, 'omitStages');
  (policy.rules ?? []).forEach((rule, i) => errs.push(...validateRule(rule, `rules[${i}]`)));
  return errs;
}

function validateRule(rule: AuditPolicyRule, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const level: string = rule.level ?? '';
  if (level === '') errs.push(fieldErrors.required(`${path}.level`));
  else if (!levels.includes(level)) errs.push(fieldErrors.notSupported(`${path}.level`, level, levels));
  (rule.nonResourceURLs ?? []).forEach((url, i) => {
    if (url === '*') return;
    const at = `${path}.nonResourceURLs[${i}]`;
    if (!url.startsWith('/')) errs.push(fieldErrors.invalid(at, url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) errs.push(fieldErrors.invalid(at, url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  for (const gr of rule.resources ?? []) {
    // kube names these fields without the list index
    const group = gr.group ?? '';
    const msgs = group === '' ? [] : nameIsDNSSubdomain(group, false);
    if (msgs.length) errs.push(fieldErrors.invalid(`${path}.resources.group`, group, msgs.join(',')));
    if (gr.resourceNames?.length && !gr.resources?.length) {
      errs.push(fieldErrors.invalid(`${path}.resources.resourceNames`, gr.resourceNames, 'using resourceNames requires at least one resource'));
    }
  }
  errs.push(...validateOmitStages(rule.omitStages, `${path}.omitStages`));
  if (rule.nonResourceURLs?.length && (rule.resources?.length || rule.namespaces?.length)) {
    errs.push(fieldErrors.invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  return errs;
}

function validateOmitStages(omit: readonly string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (omit ?? []).forEach((stage, i) => {
    if (!stages.includes(stage)) errs.push(fieldErrors.invalid(`${path}[${i}]`, stage, `allowed stages are ${stages.join(',')}`));
  });
  return errs;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The JSON type names Go's decoder reports ("cannot unmarshal string into …"). */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

function typeError(v: unknown, field: string, goType: string): AuditPolicyError {
  return new AuditPolicyError(`failed decoding: json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type ${goType}`);
}

/** The fields kapi reads have the types the Go structs give them (a null is an absent field, as in Go). */
function checkShape(policy: Json): void {
  const strings = (v: unknown, field: string) => {
    if (v == null) return;
    if (!Array.isArray(v)) throw typeError(v, field, '[]string');
    for (const s of v) if (typeof s !== 'string') throw typeError(s, field, 'string');
  };
  const bool = (v: unknown, field: string) => {
    if (v != null && typeof v !== 'boolean') throw typeError(v, field, 'bool');
  };
  strings(policy.omitStages, 'Policy.omitStages');
  bool(policy.omitManagedFields, 'Policy.omitManagedFields');
  if (policy.rules == null) return;
  if (!Array.isArray(policy.rules)) throw typeError(policy.rules, 'Policy.rules', '[]v1.PolicyRule');
  for (const rule of policy.rules as unknown[]) {
    if (!isObject(rule)) throw typeError(rule, 'Policy.rules', 'v1.PolicyRule');
    if (rule.level != null && typeof rule.level !== 'string') throw typeError(rule.level, 'PolicyRule.rules.level', 'v1.Level');
    for (const f of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'omitStages']) strings(rule[f], `PolicyRule.rules.${f}`);
    bool(rule.omitManagedFields, 'PolicyRule.rules.omitManagedFields');
    if (rule.resources == null) continue;
    if (!Array.isArray(rule.resources)) throw typeError(rule.resources, 'PolicyRule.rules.resources', '[]v1.GroupResources');
    for (const gr of rule.resources as unknown[]) {
      if (!isObject(gr)) throw typeError(gr, 'PolicyRule.rules.resources', 'v1.GroupResources');
      if (gr.group != null && typeof gr.group !== 'string') throw typeError(gr.group, 'GroupResources.rules.resources.group', 'string');
      strings(gr.resources, 'GroupResources.rules.resources.resources');
      strings(gr.resourceNames, 'GroupResources.rules.resources.resourceNames');
    }
  }
}
