import type { StatusCause } from '../../errors/api-error.js';
import { fieldErrors } from '../../errors/api-error.js';
import { goQuote } from '../../selectors/go-compat.js';
import { validateLabels } from '../../validation/labels.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../validation/names.js';
import type { LabelSelectorObject } from '../../selectors/label-selector.js';
import type { AdmissionWebhook, MutatingWebhook, WebhookConfiguration, WebhookMatchCondition, WebhookRule } from './webhook-configuration-types.js';
import { validateWebhookService, validateWebhookUrl } from '../../webhook/client-config-validation.js';

/**
 * Compiles one match-condition expression (CEL that must be a bool; admission/ provides it, core/ has no admission
 * CEL environment): undefined when it compiles, else kube's error type and detail.
 */
export type MatchConditionCompiler = (expression: string) => { type: 'Invalid' | 'Internal'; detail: string } | undefined;

/** kube's validationOptions: on update, rules the stored object already breaks are not enforced again. */
interface ValidationOptions {
  compileCondition: MatchConditionCompiler;
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
}

const acceptedReviewVersions = ['v1', 'v1beta1'];
const failurePolicies = ['Fail', 'Ignore'];
const matchPolicies = ['Equivalent', 'Exact'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];
const sideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const scopes = ['*', 'Cluster', 'Namespaced'];
const reinvocationPolicies = ['IfNeeded', 'Never'];
const maxMatchConditions = 64;

/** field.Invalid with a Go slice as the bad value (kube prints it with %#v: `[]string{"a", "b"}`). */
function invalidSlice(field: string, goType: string, values: readonly string[], detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${goType}{${values.map(goQuote).join(', ')}}: ${detail}`, field };
}

function internalError(field: string, detail: string): StatusCause {
  return { reason: 'InternalError', message: `Internal error: ${detail}`, field };
}

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function fullyQualifiedName(field: string, name: string | undefined): StatusCause[] {
  if (!name) return [fieldErrors.required(field)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [fieldErrors.invalid(field, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldErrors.invalid(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** metav1validation.ValidateLabelSelector (invalid label values refused, as on create). */
function labelSelector(sel: LabelSelectorObject | undefined, path: string): StatusCause[] {
  if (!sel) return [];
  const causes = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = expr.values ?? [];
    if (expr.operator === 'In' || expr.operator === 'NotIn') {
      if (!values.length) causes.push(fieldErrors.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (expr.operator === 'Exists' || expr.operator === 'DoesNotExist') {
      if (values.length) causes.push(fieldErrors.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      causes.push(fieldErrors.invalid(`${p}.operator`, expr.operator ?? '', 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(expr.key ?? '')) causes.push(fieldErrors.invalid(`${p}.key`, expr.key ?? '', msg));
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(v)) causes.push(fieldErrors.invalid(`${p}.values[${j}]`, v, msg));
    });
  });
  return causes;
}

/** The `resources` patterns of a rule: no empty entries, no pattern shadowed by a wildcard. */
function ruleResources(resources: string[] | undefined, path: string): StatusCause[] {
  const list = resources ?? [];
  const causes: StatusCause[] = [];
  if (!list.length) causes.push(fieldErrors.required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let resourceWithoutSub = false;
  list.forEach((resSub, i) => {
    if (resSub === '') {
      causes.push(fieldErrors.required(`${path}[${i}]`));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      resourceWithoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) causes.push(fieldErrors.invalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) causes.push(fieldErrors.invalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (list.length > 1 && doubleWildcard) causes.push(invalidSlice(path, '[]string', list, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && resourceWithoutSub) {
    causes.push(invalidSlice(path, '[]string', list, "if '*' is present, must not specify other resources without subresources"));
  }
  return causes;
}

function rule(r: WebhookRule, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const ops = r.operations ?? [];
  if (!ops.length) causes.push(fieldErrors.required(`${path}.operations`));
  if (ops.length > 1 && ops.includes('*')) {
    causes.push(invalidSlice(`${path}.operations`, '[]admissionregistration.OperationType', ops, "if '*' is present, must not specify other operations"));
  }
  ops.forEach((op, i) => {
    if (!operations.includes(op)) causes.push(fieldErrors.notSupported(`${path}.operations[${i}]`, op, operations));
  });
  const groups = r.apiGroups ?? [];
  if (!groups.length) causes.push(fieldErrors.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) causes.push(invalidSlice(`${path}.apiGroups`, '[]string', groups, "if '*' is present, must not specify other API groups"));
  const versions = r.apiVersions ?? [];
  if (!versions.length) causes.push(fieldErrors.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) {
    causes.push(invalidSlice(`${path}.apiVersions`, '[]string', versions, "if '*' is present, must not specify other API versions"));
  }
  versions.forEach((v, i) => {
    if (v === '') causes.push(fieldErrors.required(`${path}.apiVersions[${i}]`));
  });
  causes.push(...ruleResources(r.resources, `${path}.resources`));
  if (r.scope !== undefined && r.scope !== null && !scopes.includes(r.scope)) causes.push(fieldErrors.notSupported(`${path}.scope`, r.scope, scopes));
  return causes;
}

/** At most 64 match conditions, uniquely named, each compiling to a bool. */
function matchConditions(conditions: WebhookMatchCondition[] | undefined, compile: MatchConditionCompiler, path: string): StatusCause[] {
  const list = conditions ?? [];
  const causes: StatusCause[] = [];
  if (list.length > maxMatchConditions) {
    causes.push({ reason: 'FieldValueTooMany', message: `Too many: ${list.length}: must have at most ${maxMatchConditions} items`, field: path });
  }
  const names = new Set<string>();
  list.forEach((mc, i) => {
    const p = `${path}[${i}]`;
    const expression = (mc.expression ?? '').trim();
    if (!expression) causes.push(fieldErrors.required(`${p}.expression`));
    else {
      const error = compile(expression);
      if (error?.type === 'Invalid') causes.push(fieldErrors.invalid(`${p}.expression`, expression, error.detail));
      else if (error) causes.push(internalError(`${p}.expression`, error.detail));
    }
    if (!mc.name) causes.push(fieldErrors.required(`${p}.name`));
    else for (const msg of isQualifiedName(mc.name)) causes.push(fieldErrors.invalid(`${p}.name`, mc.name, msg));
    if (mc.name) {
      if (names.has(mc.name)) causes.push(fieldErrors.duplicate(`${p}.name`, mc.name));
      names.add(mc.name);
    }
  });
  return causes;
}

function webhook(hook: AdmissionWebhook, mutating: boolean, opts: ValidationOptions, path: string): StatusCause[] {
  const causes = fullyQualifiedName(`${path}.name`, hook.name);
  (hook.rules ?? []).forEach((r, i) => causes.push(...rule(r ?? {}, `${path}.rules[${i}]`)));
  if (hook.failurePolicy != null && !failurePolicies.includes(hook.failurePolicy)) {
    causes.push(fieldErrors.notSupported(`${path}.failurePolicy`, hook.failurePolicy, failurePolicies));
  }
  if (hook.matchPolicy != null && !matchPolicies.includes(hook.matchPolicy)) causes.push(fieldErrors.notSupported(`${path}.matchPolicy`, hook.matchPolicy, matchPolicies));
  const allowedSideEffects = opts.requireNoSideEffects ? noSideEffectClasses : sideEffectClasses;
  if (hook.sideEffects == null) causes.push(fieldErrors.required(`${path}.sideEffects`, `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects)) causes.push(fieldErrors.notSupported(`${path}.sideEffects`, hook.sideEffects, allowedSideEffects));
  if (hook.timeoutSeconds != null && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    causes.push(fieldErrors.invalid(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  causes.push(...labelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  causes.push(...labelSelector(hook.objectSelector, `${path}.objectSelector`));
  const reinvocation = (hook as MutatingWebhook).reinvocationPolicy;
  if (mutating && reinvocation != null && !reinvocationPolicies.includes(reinvocation)) {
    causes.push(fieldErrors.notSupported(`${path}.reinvocationPolicy`, reinvocation, reinvocationPolicies));
  }
  const cc = hook.clientConfig ?? {};
  const hasUrl = cc.url != null;
  const hasService = cc.service != null;
  if (hasUrl === hasService) causes.push(fieldErrors.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (hasUrl) causes.push(...validateWebhookUrl(cc.url!, `${path}.clientConfig.url`));
  else causes.push(...validateWebhookService(cc.service!, `${path}.clientConfig.service`));
  if (!opts.ignoreMatchConditions) causes.push(...matchConditions(hook.matchConditions, opts.compileCondition, `${path}.matchConditions`));
  return causes;
}

function admissionReviewVersions(versions: string[] | undefined, requireRecognized: boolean, path: string): StatusCause[] {
  const list = versions ?? [];
  if (!list.length) return [fieldErrors.required(path, `must specify one of ${acceptedReviewVersions.join(', ')}`)];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  list.forEach((v, i) => {
    if (seen.has(v)) {
      causes.push(fieldErrors.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) causes.push(fieldErrors.invalid(`${path}[${i}]`, v, msg));
  });
  if (requireRecognized && !list.some((v) => acceptedReviewVersions.includes(v))) {
    causes.push(invalidSlice(path, '[]string', list, `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  }
  return causes;
}

function validate(config: WebhookConfiguration, mutating: boolean, opts: ValidationOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  (config.webhooks ?? []).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    causes.push(...webhook(hook, mutating, opts, path));
    causes.push(...admissionReviewVersions(hook.admissionReviewVersions, opts.requireRecognizedAdmissionReviewVersion, `${path}.admissionReviewVersions`));
    if (opts.requireUniqueWebhookNames && hook.name) {
      if (names.has(hook.name)) causes.push(fieldErrors.duplicate(`${path}.name`, hook.name));
      names.add(hook.name);
    }
  });
  return causes;
}

const sameMatchConditions = (a: AdmissionWebhook[], b: AdmissionWebhook[]) =>
  a.length === b.length && a.every((h, i) => JSON.stringify(h.matchConditions ?? null) === JSON.stringify(b[i].matchConditions ?? null));

/**
 * kube's ValidateValidating/MutatingWebhookConfiguration(Update): the 422 causes of a webhook configuration. An update
 * is held only to the rules its stored version already satisfied (names unique, side effects None/NoneOnDryRun,
 * a known AdmissionReview version), and unchanged match conditions are not compiled again.
 */
export function validateWebhookConfiguration(
  config: WebhookConfiguration,
  mutating: boolean,
  compileCondition: MatchConditionCompiler,
  old?: WebhookConfiguration,
): StatusCause[] {
  if (!old) {
    return validate(config, mutating, {
      compileCondition,
      ignoreMatchConditions: false,
      requireNoSideEffects: true,
      requireRecognizedAdmissionReviewVersion: true,
      requireUniqueWebhookNames: true,
    });
  }
  const oldHooks = old.webhooks ?? [];
  const oldNames = oldHooks.map((h) => h.name);
  return validate(config, mutating, {
    compileCondition,
    ignoreMatchConditions: sameMatchConditions(config.webhooks ?? [], oldHooks),
    requireNoSideEffects: oldHooks.every((h) => h.sideEffects != null && noSideEffectClasses.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: oldHooks.every(
      (h) => !h.admissionReviewVersions?.length || h.admissionReviewVersions.some((v) => acceptedReviewVersions.includes(v)),
    ),
    requireUniqueWebhookNames: new Set(oldNames).size === oldNames.length,
  });
}
