import { errors, type ApiError } from '../../core/contracts/api-error.js';
import type { LabelSelector } from '../../lib/k8s/labels/label-selector.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { AdmissionWebhook, MutatingWebhook, WebhookConfiguration } from '../../builtin/admissionregistration/webhook-configuration-types.js';
import { admissionSelector } from '../matching/selectors.js';
import { compileMatchConditions, type CompiledMatchConditions } from '../matching/match-conditions.js';
import type { MatchPolicy } from '../matching/admission-rules.js';
import { reviewVersionFor, type ReviewVersion } from './admission-review.js';

/**
 * One webhook of a stored configuration, with what calling it needs worked out once per configuration change:
 * parsed selectors, compiled match conditions, the AdmissionReview version to send.
 */
export interface WebhookAccessor {
  /** `<configuration>/<webhook>/<index>`: tells apart same-named webhooks of different configurations. */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly hook: AdmissionWebhook;
  readonly ignoreFailures: boolean;
  readonly matchPolicy: MatchPolicy;
  /** Whether a dry run may call it (sideEffects None or NoneOnDryRun). */
  readonly dryRunSafe: boolean;
  readonly timeoutMs: number;
  /** undefined: the webhook accepts no AdmissionReview version kapi speaks. */
  readonly reviewVersion?: ReviewVersion;
  readonly reinvokeIfNeeded: boolean;
  /** The parsed selectors, or the error parsing them (an InternalError when the webhook is matched, as kube). */
  readonly selectors: { namespace: LabelSelector; object: LabelSelector } | ApiError;
  readonly matchConditions: CompiledMatchConditions;
}

function selectorsOf(hook: AdmissionWebhook): WebhookAccessor['selectors'] {
  try {
    return { namespace: admissionSelector(hook.namespaceSelector), object: admissionSelector(hook.objectSelector) };
  } catch (err) {
    return errors.internal((err as Error).message);
  }
}

function accessor(config: WebhookConfiguration, hook: AdmissionWebhook, index: number): WebhookAccessor {
  const configurationName = config.metadata?.name ?? '';
  return {
    uid: `${configurationName}/${hook.name}/${index}`,
    configurationName,
    name: hook.name,
    hook,
    ignoreFailures: hook.failurePolicy === 'Ignore',
    matchPolicy: hook.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
    dryRunSafe: hook.sideEffects === 'None' || hook.sideEffects === 'NoneOnDryRun',
    timeoutMs: (hook.timeoutSeconds ?? 10) * 1000,
    reviewVersion: reviewVersionFor(hook.admissionReviewVersions),
    reinvokeIfNeeded: (hook as MutatingWebhook).reinvocationPolicy === 'IfNeeded',
    selectors: selectorsOf(hook),
    matchConditions: compileMatchConditions(hook.matchConditions ?? []),
  };
}

/** The webhooks of one configuration, in their order. */
export function configurationWebhooks(config: KubeObject): WebhookAccessor[] {
  return ((config as WebhookConfiguration).webhooks ?? []).map((hook, i) => accessor(config as WebhookConfiguration, hook, i));
}
