import { join } from 'node:path';
import {
  ClientCaFile,
  KubeconfigError,
  PublishedAuthentication,
  publishedAuthenticationAuth,
  readKubeconfigClient,
  type KubeconfigClient,
  type Module,
  type WebhookTokenAuthOptions,
} from '../index.js';
import type { ServeOptions } from './serve-flags.js';

/** What a token webhook or a front server adds to kapi's authentication. */
export interface AuthenticationDelegation {
  /** Reviews the bearer tokens kapi does not know, last in the chain. */
  tokenWebhook?: WebhookTokenAuthOptions;
  /** The authenticators of what the front server publishes, for what the flags leave to it. */
  published?: {
    module: Module;
    /** Whether the published client CA replaces `--client-ca-file`'s default (kapi's own CA, which it still trusts). */
    clientCa: boolean;
  };
}

/** kube-apiserver's webhook request timeout. */
const webhookTimeoutMs = 30_000;
/** k8s.io/apiserver's TokenAccessReviewTimeout. */
const delegatedTimeoutMs = 10_000;

/**
 * `--authentication-token-webhook-config-file` (kube-apiserver's token webhook) or `--authentication-kubeconfig`
 * (k8s.io/apiserver's delegating authentication: TokenReview at the front server, and unless `--client-ca-file` and
 * `--requestheader-client-ca-file` are given or the lookup is skipped, the authentication it publishes, read now).
 * A front server that cannot be read fails the start with kube's message, unless that is tolerated.
 */
export async function authenticationDelegation(opts: ServeOptions, apiAudiences: string[]): Promise<AuthenticationDelegation> {
  if (opts.tokenWebhook) {
    const { configFile, version, cacheTtlMs } = opts.tokenWebhook;
    const client = kubeconfigClient(configFile, '--authentication-token-webhook-config-file');
    return { tokenWebhook: { client, version, cacheTtlMs, timeoutMs: webhookTimeoutMs, apiAudiences } };
  }
  const delegated = opts.delegatedAuthentication;
  if (!delegated) return {};
  const client = kubeconfigClient(delegated.kubeconfig, '--authentication-kubeconfig');
  // As k8s.io/apiserver's delegating authenticator: no audiences of its own, the front checks tokens for its API's
  const tokenWebhook: WebhookTokenAuthOptions = { client, version: 'v1', path: '/apis/authentication.k8s.io/v1/tokenreviews', cacheTtlMs: delegated.cacheTtlMs, timeoutMs: delegatedTimeoutMs, apiAudiences: [] };
  const lookUpClientCa = !opts.clientCaFile;
  const lookUpRequestHeader = !opts.requestHeader;
  if (delegated.skipLookup || (!lookUpClientCa && !lookUpRequestHeader)) return { tokenWebhook };
  const published = new PublishedAuthentication(client);
  let requestHeader = lookUpRequestHeader;
  try {
    await published.read();
  } catch (err) {
    const message = (err as Error).message;
    if (!lookUpRequestHeader) {
      // as kube's client CA controller: read again while serving
      console.error(`kapi: unable to load configmap based client CA file: ${message}`);
    } else if (delegated.tolerateLookupFailure) {
      console.error(`kapi: Error looking up in-cluster authentication configuration: ${message}`);
      console.error('kapi: Continuing without authentication configuration. This may treat all requests as anonymous.');
      console.error('kapi: To require authentication configuration lookup to succeed, set --authentication-tolerate-lookup-failure=false');
      requestHeader = false;
    } else {
      throw new Error(`unable to load configmap based request-header-client-ca-file: ${message}`);
    }
  }
  const ownCa = new ClientCaFile(join(opts.dataDir, 'pki', 'ca.crt'));
  const module = publishedAuthenticationAuth(published, { requestHeader, clientCa: lookUpClientCa, alsoTrusted: () => ownCa.current() });
  return { tokenWebhook, published: { module, clientCa: lookUpClientCa } };
}

function kubeconfigClient(file: string, flag: string): KubeconfigClient {
  try {
    return readKubeconfigClient(file);
  } catch (err) {
    if (err instanceof KubeconfigError) throw new Error(`${flag}: ${err.message}`);
    throw err;
  }
}
