import type { StatusCause } from '../../core/contracts/api-error.js';
import { appendCauses, fieldErrors } from '../../core/contracts/api-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../lib/k8s/names.js';
import type { AdmissionWebhook, MutatingWebhook, WebhookConfiguration } from './webhook-configuration-types.js';
import { validateWebhookService, validateWebhookUrl } from '../../lib/webhook/client-config-validation.js';
import { goInvalidRaw, goStringSlice } from './go-field-values.js';
import { validateLabelSelector } from './label-selector-validation.js';
import { validateMatchConditions, validateRuleWithOperations, type MatchConditionCompiler } from './match-rules-validation.js';

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
const reinvocationPolicies = ['IfNeeded', 'Never'];

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function fullyQualifiedName(field: string, name: string | undefined): StatusCause[] {
  if (!name) return [fieldErrors.required(field)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [fieldErrors.invalid(field, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldErrors.invalid(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function webhook(hook: AdmissionWebhook, mutating: boolean, opts: ValidationOptions, path: string): StatusCause[] {
  const causes = fullyQualifiedName(`${path}.name`, hook.name);
  (hook.rules ?? []).forEach((r, i) => appendCauses(causes, validateRuleWithOperations(r ?? {}, `${path}.rules[${i}]`)));
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
  appendCauses(causes, validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  appendCauses(causes, validateLabelSelector(hook.objectSelector, `${path}.objectSelector`));
  const reinvocation = (hook as MutatingWebhook).reinvocationPolicy;
  if (mutating && reinvocation != null && !reinvocationPolicies.includes(reinvocation)) {
    causes.push(fieldErrors.notSupported(`${path}.reinvocationPolicy`, reinvocation, reinvocationPolicies));
  }
  const cc = hook.clientConfig ?? {};
  const hasUrl = cc.url != null;
  const hasService = cc.service != null;
  if (hasUrl === hasService) causes.push(fieldErrors.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (hasUrl) appendCauses(causes, validateWebhookUrl(cc.url!, `${path}.clientConfig.url`));
  else appendCauses(causes, validateWebhookService(cc.service!, `${path}.clientConfig.service`));
  if (!opts.ignoreMatchConditions) appendCauses(causes, validateMatchConditions(hook.matchConditions, opts.compileCondition, `${path}.matchConditions`));
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
    causes.push(goInvalidRaw(path, goStringSlice('string', list), `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  }
  return causes;
}

function validate(config: WebhookConfiguration, mutating: boolean, opts: ValidationOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  (config.webhooks ?? []).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    appendCauses(causes, webhook(hook, mutating, opts, path));
    appendCauses(causes, admissionReviewVersions(hook.admissionReviewVersions, opts.requireRecognizedAdmissionReviewVersion, `${path}.admissionReviewVersions`));
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
