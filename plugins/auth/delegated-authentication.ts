import type { X509Certificate } from 'node:crypto';
import type { Module } from '../../core/contracts/module.js';
import type { KubeconfigClient } from './kubeconfig-client.js';
import { PublishedAuthentication, publishedAuthenticationAuth } from './published-authentication.js';
import type { WebhookTokenAuthOptions } from './webhook-token-authenticator.js';
import { log } from '../../lib/log/logger.js';

/** k8s.io/apiserver's TokenAccessReviewTimeout. */
const delegatedTimeoutMs = 10_000;
/** k8s.io/apiserver's default `--authentication-token-webhook-cache-ttl` for delegated authentication. */
const delegatedCacheTtlMs = 10_000;

export interface DelegatedAuthenticationOptions {
  /** The front server's API, as the extension server's own user (`--authentication-kubeconfig`). */
  client: KubeconfigClient;
  /** How long a token's review is used (default 10s, as k8s.io/apiserver). */
  cacheTtlMs?: number;
  /** Trust the client CA the front publishes (false when the server has its own `--client-ca-file`). Default true. */
  lookUpClientCa?: boolean;
  /** Trust the front-proxy settings the front publishes (false with its own `--requestheader-client-ca-file`). Default true. */
  lookUpRequestHeader?: boolean;
  /** `--authentication-skip-lookup`: only review tokens at the front, trust nothing it publishes. */
  skipLookup?: boolean;
  /** `--authentication-tolerate-lookup-failure`: start even when the published configuration cannot be read. */
  tolerateLookupFailure?: boolean;
  /** Client CAs trusted beside the published one (kapi serve: its own CA). */
  alsoTrusted?: () => X509Certificate[];
}

/** What delegated authentication adds to a server's authentication. */
export interface DelegatedAuthentication {
  /** Reviews the bearer tokens the server does not know at the front (`defaultModules`' `tokenWebhook`: last in the chain). */
  tokenWebhook: WebhookTokenAuthOptions;
  /**
   * The authenticators of what the front publishes in `kube-system/extension-apiserver-authentication` (request
   * headers from its front proxy, client certificates), followed while serving; first among the `authModules`.
   */
  published?: {
    module: Module;
    /** Whether it authenticates client certificates (the published client CA is looked up). */
    clientCa: boolean;
  };
}

/**
 * Authentication delegated to a front server, as k8s.io/apiserver's delegating options give an extension API server:
 * TokenReview at the front for bearer tokens, and unless both are the server's own or the lookup is skipped, the
 * client CA and front-proxy settings the front publishes, read now. A front that cannot be read rejects with
 * kube's message (`unable to load configmap based request-header-client-ca-file: …`), unless that is tolerated.
 *
 *   const delegation = await delegatedAuthentication({ client: readKubeconfigClient(file) });
 *   defaultModules({ …, authModules: [...(delegation.published ? [delegation.published.module] : []), …], tokenWebhook: delegation.tokenWebhook })
 */
export async function delegatedAuthentication(opts: DelegatedAuthenticationOptions): Promise<DelegatedAuthentication> {
  // As k8s.io/apiserver's delegating authenticator: no audiences of its own, the front checks tokens for its API's
  const tokenWebhook: WebhookTokenAuthOptions = {
    client: opts.client,
    version: 'v1',
    path: '/apis/authentication.k8s.io/v1/tokenreviews',
    cacheTtlMs: opts.cacheTtlMs ?? delegatedCacheTtlMs,
    timeoutMs: delegatedTimeoutMs,
    apiAudiences: [],
  };
  const lookUpClientCa = opts.lookUpClientCa ?? true;
  const lookUpRequestHeader = opts.lookUpRequestHeader ?? true;
  if (opts.skipLookup || (!lookUpClientCa && !lookUpRequestHeader)) return { tokenWebhook };
  const published = new PublishedAuthentication(opts.client);
  let requestHeader = lookUpRequestHeader;
  try {
    await published.read();
  } catch (err) {
    const message = (err as Error).message;
    if (!lookUpRequestHeader) {
      // as kube's client CA controller: read again while serving
      log.error(`unable to load configmap based client CA file: ${message}`);
    } else if (opts.tolerateLookupFailure) {
      log.error(`Error looking up in-cluster authentication configuration: ${message}`);
      log.error('Continuing without authentication configuration. This may treat all requests as anonymous.');
      log.error('To require authentication configuration lookup to succeed, set --authentication-tolerate-lookup-failure=false');
      requestHeader = false;
    } else {
      throw new Error(`unable to load configmap based request-header-client-ca-file: ${message}`);
    }
  }
  const module = publishedAuthenticationAuth(published, { requestHeader, clientCa: lookUpClientCa, ...(opts.alsoTrusted ? { alsoTrusted: opts.alsoTrusted } : {}) });
  return { tokenWebhook, published: { module, clientCa: lookUpClientCa } };
}
