import { restResultError, WebhookCallError, type WebhookResponse } from '../../lib/webhook/webhook-client.js';
import { goJsonParseError } from '../../lib/go/json-errors.js';
import type { KubeconfigClient } from './kubeconfig-client.js';

/** The TokenReview versions kube-apiserver's token webhook speaks. */
export type TokenReviewVersion = 'v1' | 'v1beta1';

/** A TokenReview's answer, as authentication.k8s.io TokenReviewStatus. */
export interface TokenReviewStatus {
  authenticated: boolean;
  user: { username: string; uid?: string; groups: string[]; extra?: Record<string, string[]> };
  audiences: string[];
  error: string;
}

export interface TokenReviewClientOptions {
  version: TokenReviewVersion;
  /** Where on the server the review is POSTed: absent, the kubeconfig's server URL itself (a webhook's). */
  path?: string;
  /** The deadline of one attempt. */
  timeoutMs: number;
}

/** client-go's DefaultRetryBackoff: 500ms, then ×1.5 each time (±20% jitter), five attempts in all. */
const backoff = { initialMs: 500, factor: 1.5, jitter: 0.2, attempts: 5 };

/**
 * Asks a server about a bearer token with a TokenReview (kube's webhook token authenticator's client): answers that
 * say the call may succeed later (500, 504, 429, a Retry-After, a reset connection) are retried with client-go's
 * backoff. Throws an Error whose message is client-go's when no usable answer comes.
 */
export class TokenReviewClient {
  constructor(
    private readonly client: KubeconfigClient,
    private readonly options: TokenReviewClientOptions,
  ) {}

  async review(token: string, audiences: string[]): Promise<TokenReviewStatus> {
    const body = {
      apiVersion: `authentication.k8s.io/${this.options.version}`,
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token, ...(audiences.length > 0 ? { audiences } : {}) },
      status: { user: {} },
    };
    let delayMs = backoff.initialMs;
    for (let attempt = 1; ; attempt++) {
      let res: WebhookResponse | undefined;
      let failure: Error;
      try {
        res = await this.client.post(body, this.options.timeoutMs, this.options.path);
        const error = restResultError(res);
        if (error === undefined) return decodeStatus(res.body);
        failure = new Error(error);
      } catch (err) {
        failure = err as Error;
      }
      if (attempt >= backoff.attempts || !retriable(res, failure)) throw failure;
      await new Promise((r) => setTimeout(r, delayMs * (1 + backoff.jitter * Math.random())));
      delayMs *= backoff.factor;
    }
  }
}

/** client-go's DefaultShouldRetry: a reset connection, an internal error, a timeout, too many requests, a Retry-After. */
function retriable(res: WebhookResponse | undefined, err: Error): boolean {
  if (!res) return err instanceof WebhookCallError && /connection reset by peer|: EOF$/.test(err.message);
  return res.status === 500 || res.status === 504 || res.status === 429 || res.retryAfterSeconds !== undefined;
}

/** A TokenReview answer's status; a body that is not one is an error. */
function decodeStatus(body: Buffer): TokenReviewStatus {
  const text = body.toString('utf8');
  let review: unknown;
  try {
    review = JSON.parse(text);
  } catch {
    // client-go's decoder's words
    throw new Error(`couldn't get version/kind; json parse error: ${goJsonParseError(text)}`);
  }
  const status = field(review, 'status') ?? {};
  const user = field(status, 'user') ?? {};
  const uid = typed(user, 'uid', 'string');
  const extraValues = field(user, 'extra');
  return {
    authenticated: typed(status, 'authenticated', 'boolean') ?? false,
    user: {
      username: typed(user, 'username', 'string') ?? '',
      ...(uid ? { uid } : {}),
      groups: stringList(user, 'groups'),
      ...(extraValues ? { extra: extra(extraValues) } : {}),
    },
    audiences: stringList(status, 'audiences'),
    error: typed(status, 'error', 'string') ?? '',
  };
}

function field(o: unknown, key: string): Record<string, unknown> | undefined {
  const v = isObject(o) ? o[key] : undefined;
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new Error(`invalid TokenReview response: ${key} is not an object`);
  return v;
}

function typed<K extends 'string' | 'boolean'>(o: Record<string, unknown>, key: string, type: K): (K extends 'string' ? string : boolean) | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== type) throw new Error(`invalid TokenReview response: ${key} is not a ${type}`);
  return v as K extends 'string' ? string : boolean;
}

function stringList(o: Record<string, unknown>, key: string): string[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error(`invalid TokenReview response: ${key} is not a list of strings`);
  return v as string[];
}

function extra(o: Record<string, unknown>): Record<string, string[]> {
  return Object.fromEntries(Object.keys(o).map((k) => [k, stringList(o, k)]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
