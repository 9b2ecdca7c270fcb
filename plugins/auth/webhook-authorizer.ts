import type { UserInfo } from '../../core/contracts/authenticator.js';
import type { AuthorizationAttributes, Authorizer, AuthorizerAnswer, Decision } from '../../core/contracts/authorizer.js';
import { goTypes as t, goDecodeError } from '../../lib/go/json-decoding.js';
import { goJsonParseError, unmarshalValueError } from '../../lib/go/json-errors.js';
import { restResultError, WebhookCallError } from '../../lib/webhook/webhook-client.js';
import type { AuthorizationMatchConditions } from './authorization-match-conditions.js';
import { ExpiringCache } from './expiring-cache.js';
import type { KubeconfigClient } from './kubeconfig-client.js';
import { log } from '../../lib/log/logger.js';

/** The SubjectAccessReview versions a webhook may be sent (`--authorization-webhook-version`). */
export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

export interface WebhookAuthorizerOptions {
  /** The webhook's name in logs (an AuthorizationConfiguration's webhook name; `webhook` for the flags). */
  name: string;
  client: KubeconfigClient;
  /** Where on the client's server the review is POSTed; absent: its `server` URL itself (a webhook's kubeconfig). */
  path?: string;
  version: SubjectAccessReviewVersion;
  timeoutMs: number;
  /** How long an allowed answer is reused; 0: not cached. */
  authorizedTtlMs: number;
  /** How long any other answer is reused; 0: not cached. */
  unauthorizedTtlMs: number;
  /** What a failed call decides (kube's failurePolicy: NoOpinion, or Deny). */
  decisionOnError: Decision;
  matchConditions?: AuthorizationMatchConditions;
  /** How failed calls that may pass on a retry are retried; default kube's (500ms, ×1.5, 5 attempts). */
  retryBackoff?: RetryBackoff;
}

/** An exponential backoff: the first delay, its growth factor, and how many attempts in all. */
export interface RetryBackoff {
  initialMs: number;
  factor: number;
  attempts: number;
}

/** k8s.io/apiserver's DefaultRetryBackoffWithInitialDelay(500ms), without the jitter. */
const defaultRetryBackoff: RetryBackoff = { initialMs: 500, factor: 1.5, attempts: 5 };

interface ReviewStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
}

/** kube's LRUExpireCache size for webhook answers. */
const cacheSize = 8192;
/** Requests whose requester-controlled attributes are longer than this are not cached (kube's maxControlledAttrCacheSize). */
const maxControlledAttrCacheSize = 10_000;

const group = 'authorization.k8s.io';

/**
 * kube's webhook authorizer: asks a remote service with a SubjectAccessReview and takes its `status` — allowed,
 * denied (which stops the chain) or neither (no opinion) — with its `reason`. Answers are cached by the review's spec,
 * allowed ones for `authorizedTtlMs`, others for `unauthorizedTtlMs`. A call that fails (unreachable, timeout,
 * non-2xx, an answer that does not decode) is not cached: it decides `decisionOnError` and reports why.
 * It has no rules to list: SelfSubjectRulesReview is incomplete with it (core/contracts' unionRulesFor).
 */
export class WebhookAuthorizer implements Authorizer {
  readonly name = 'webhook';
  private readonly cache = new ExpiringCache<ReviewStatus>(cacheSize);

  constructor(private readonly opts: WebhookAuthorizerOptions) {}

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizerAnswer> {
    const spec = reviewSpec(attrs);
    const conditions = this.opts.matchConditions;
    if (conditions?.size) {
      const matched = conditions.evaluate(spec);
      if ('error' in matched) return this.failed(matched.error);
      if (!matched.matches) return { decision: 'no-opinion' };
    }
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (!status) {
      try {
        status = await this.ask(spec);
      } catch (err) {
        if (!(err instanceof WebhookCallError) && !(err instanceof ReviewAnswerError)) throw err;
        return this.failed(err.message);
      }
      if (controlledAttributesLength(attrs) < maxControlledAttrCacheSize) {
        const ttl = status.allowed ? this.opts.authorizedTtlMs : this.opts.unauthorizedTtlMs;
        if (ttl > 0) this.cache.set(key, status, ttl);
      }
    }
    const reason = status.reason ? { reason: status.reason } : {};
    if (status.denied && status.allowed) return { decision: 'deny', ...reason, evaluationError: 'webhook subject access review returned both allow and deny response' };
    if (status.denied) return { decision: 'deny', ...reason };
    if (status.allowed) return { decision: 'allow', ...reason };
    return { decision: 'no-opinion', ...reason };
  }

  private failed(message: string): AuthorizerAnswer {
    log.error(`authorization webhook ${JSON.stringify(this.opts.name)}: Failed to make webhook authorizer request: ${message}`);
    return { decision: this.opts.decisionOnError, evaluationError: message };
  }

  /**
   * Sends the review and decodes the answer; a failure that may pass (kube's DefaultShouldRetry: a connection reset,
   * 500, 504, 429 or a Retry-After answer) is retried with the backoff, the last failure thrown.
   */
  private async ask(spec: Record<string, unknown>): Promise<ReviewStatus> {
    const { version } = this.opts;
    const review = { apiVersion: `${group}/${version}`, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec: versionedSpec(spec, version), status: { allowed: false } };
    const backoff = this.opts.retryBackoff ?? defaultRetryBackoff;
    for (let attempt = 1, delayMs = backoff.initialMs; ; attempt++, delayMs *= backoff.factor) {
      try {
        const res = await this.opts.client.post(review, this.opts.timeoutMs, this.opts.path);
        const failure = restResultError(res);
        if (failure !== undefined) throw new ReviewAnswerError(failure, res.status === 500 || res.status === 504 || res.status === 429 || res.retryAfterSeconds !== undefined);
        return decodeStatus(res.body.toString('utf8'));
      } catch (err) {
        const retryable = err instanceof ReviewAnswerError ? err.retryable : err instanceof WebhookCallError && err.message.endsWith('connection reset by peer');
        if (!retryable || attempt >= backoff.attempts) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

/** An answer kube's client would not decode into a SubjectAccessReview; the message is its error. */
class ReviewAnswerError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/**
 * The SubjectAccessReviewSpec (v1) of a request, as kube's webhook authorizer fills it, without the fields Go's
 * `omitempty` leaves out (extra keys in Go's sorted map order).
 */
function reviewSpec(attrs: AuthorizationAttributes): Record<string, unknown> {
  const { user } = attrs;
  const str = (key: string, value: string | undefined) => (value ? { [key]: value } : {});
  const target = attrs.isResourceRequest
    ? {
        resourceAttributes: {
          ...str('namespace', attrs.namespace),
          ...str('verb', attrs.verb),
          ...str('group', attrs.apiGroup),
          ...str('version', attrs.apiVersion),
          ...str('resource', attrs.resource),
          ...str('subresource', attrs.subresource),
          ...str('name', attrs.name),
          // kube's AuthorizeWithSelectors: a list, watch or deletecollection's selectors, as requirements
          ...(attrs.fieldSelector?.length ? { fieldSelector: { requirements: attrs.fieldSelector } } : {}),
          ...(attrs.labelSelector?.length ? { labelSelector: { requirements: attrs.labelSelector } } : {}),
        },
      }
    : { nonResourceAttributes: { ...str('path', attrs.path), ...str('verb', attrs.verb) } };
  return { ...target, ...str('user', user.username), ...(user.groups.length ? { groups: user.groups } : {}), ...extraOf(user), ...str('uid', user.uid) };
}

function extraOf(user: UserInfo): { extra?: Record<string, string[]> } {
  const keys = Object.keys(user.extra ?? {}).sort();
  return keys.length ? { extra: Object.fromEntries(keys.map((k) => [k, user.extra![k]!])) } : {};
}

/** authorization.k8s.io/v1beta1's spec names the groups `group`. */
function versionedSpec(spec: Record<string, unknown>, version: SubjectAccessReviewVersion): Record<string, unknown> {
  if (version === 'v1' || !('groups' in spec)) return spec;
  const { groups, ...rest } = spec;
  return { ...rest, group: groups };
}

function controlledAttributesLength(a: AuthorizationAttributes): number {
  return [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path].reduce((n, v) => n + (v?.length ?? 0), 0);
}

const statusGoType = t.struct('v1.SubjectAccessReview', {
  apiVersion: t.string(),
  kind: t.string(),
  status: t.struct('v1.SubjectAccessReviewStatus', { allowed: t.bool, denied: t.bool, reason: t.string(), evaluationError: t.string() }),
});

/** The status of a SubjectAccessReview answer (either version: kube converts a v1beta1 answer), decoded as client-go would. */
function decodeStatus(text: string): ReviewStatus {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ReviewAnswerError(`couldn't get version/kind; json parse error: ${goJsonParseError(text)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ReviewAnswerError(`couldn't get version/kind; json parse error: ${unmarshalValueError(value, 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }')}`);
  }
  const typeError = goDecodeError(value, statusGoType);
  if (typeError) throw new ReviewAnswerError(typeError);
  const review = value as { apiVersion?: string; kind?: string; status?: Partial<ReviewStatus> | null };
  const kind = review.kind || 'SubjectAccessReview';
  const apiVersion = review.apiVersion || `${group}/v1`;
  if (kind !== 'SubjectAccessReview' || (apiVersion !== `${group}/v1` && apiVersion !== `${group}/v1beta1`)) {
    throw new ReviewAnswerError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:72"`);
  }
  const status = review.status ?? {};
  return { allowed: status.allowed === true, denied: status.denied === true, reason: status.reason ?? '' };
}
