import { CredentialsRejected, type AuthenticationRequest, type Authenticator, type UserInfo } from '../../core/contracts/authenticator.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { KubeconfigClient } from './kubeconfig-client.js';
import { TokenReviewClient, type TokenReviewClientOptions } from './token-review-client.js';
import { TokenResultCache } from './token-result-cache.js';
import { log } from '../../lib/log/logger.js';

/**
 * kube's webhook token authenticator: a bearer token is sent as a TokenReview for the request's audiences (absent:
 * the server's API audiences), and its answer, cached, is the user. An answer for none of those audiences is no
 * user; an answer with `status.error`, or none at all (the webhook is down, answers garbage), refuses the token (401).
 */
export class WebhookTokenAuthenticator implements Authenticator {
  constructor(
    readonly name: string,
    private readonly reviews: TokenReviewClient,
    private readonly cache: TokenResultCache<UserInfo>,
    private readonly apiAudiences: string[],
  ) {}

  async authenticate(req: AuthenticationRequest): Promise<UserInfo | null> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) return null;
    const token = match[1]!;
    const wanted = req.audiences ?? this.apiAudiences;
    return this.cache.get(token, wanted, () => this.lookUp(token, wanted));
  }

  private async lookUp(token: string, wanted: string[]): Promise<UserInfo | null> {
    let status;
    try {
      status = await this.reviews.review(token, wanted);
    } catch (err) {
      const message = (err as Error).message;
      log.error(`Failed to make webhook authenticator request: ${message}`);
      throw new CredentialsRejected(message);
    }
    if (wanted.length > 0) {
      // an answer without audiences vouches for the server's own
      const got = status.audiences.length > 0 ? status.audiences : this.apiAudiences;
      if (!wanted.some((a) => got.includes(a))) return null;
    }
    if (!status.authenticated) {
      if (status.error) throw new CredentialsRejected(status.error);
      return null;
    }
    const { username, uid, groups, extra } = status.user;
    return { username, groups, ...(uid ? { uid } : {}), ...(extra ? { extra } : {}) };
  }
}

export interface WebhookTokenAuthOptions extends TokenReviewClientOptions {
  /** Where reviews go: a kubeconfig's server, as its user. */
  client: KubeconfigClient;
  /** How long an answer is used (kube-apiserver's `--authentication-token-webhook-cache-ttl`); 0: not kept. */
  cacheTtlMs: number;
  /** The server's API audiences (`--api-audiences`): what a token is reviewed for when the request names none. */
  apiAudiences: string[];
}

/**
 * Registers a `WebhookTokenAuthenticator`. kube-apiserver's `--authentication-token-webhook-config-file` is a
 * webhook kubeconfig (`path` absent: reviews go to its server URL); an extension server's `--authentication-kubeconfig`
 * is the front server's API (`path: '/apis/authentication.k8s.io/v1/tokenreviews'`).
 */
export function webhookTokenAuth(opts: WebhookTokenAuthOptions): Module {
  const name = opts.path === undefined ? 'webhook-token' : 'delegated-token';
  const reviews = new TokenReviewClient(opts.client, opts);
  const cache = new TokenResultCache<UserInfo>(opts.cacheTtlMs, opts.cacheTtlMs);
  return defineModule(`${name}-auth`, (container) => {
    container.register(Tokens.Authenticator, { useValue: new WebhookTokenAuthenticator(name, reviews, cache, opts.apiAudiences) });
  });
}
