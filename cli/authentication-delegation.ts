import { join } from 'node:path';
import {
  ClientCaFile,
  KubeconfigError,
  delegatedAuthentication,
  readKubeconfigClient,
  type DelegatedAuthentication,
  type KubeconfigClient,
} from '../index.js';
import type { ServeOptions } from './serve-flags.js';

/** What a token webhook or a front server adds to kapi's authentication. */
export type AuthenticationDelegation = Partial<DelegatedAuthentication>;

/** kube-apiserver's webhook request timeout. */
const webhookTimeoutMs = 30_000;

/**
 * `--authentication-token-webhook-config-file` (kube-apiserver's token webhook) or `--authentication-kubeconfig`
 * (k8s.io/apiserver's delegating authentication, see delegatedAuthentication: what `--client-ca-file` and
 * `--requestheader-client-ca-file` leave to the front is looked up, kapi's own CA still trusted).
 */
export async function authenticationDelegation(opts: ServeOptions, apiAudiences: string[]): Promise<AuthenticationDelegation> {
  if (opts.tokenWebhook) {
    const { configFile, version, cacheTtlMs } = opts.tokenWebhook;
    const client = kubeconfigClient(configFile, '--authentication-token-webhook-config-file');
    return { tokenWebhook: { client, version, cacheTtlMs, timeoutMs: webhookTimeoutMs, apiAudiences } };
  }
  const delegated = opts.delegatedAuthentication;
  if (!delegated) return {};
  const ownCa = new ClientCaFile(join(opts.dataDir, 'pki', 'ca.crt'));
  return delegatedAuthentication({
    client: kubeconfigClient(delegated.kubeconfig, '--authentication-kubeconfig'),
    cacheTtlMs: delegated.cacheTtlMs,
    lookUpClientCa: !opts.clientCaFile,
    lookUpRequestHeader: !opts.requestHeader,
    skipLookup: delegated.skipLookup,
    tolerateLookupFailure: delegated.tolerateLookupFailure,
    alsoTrusted: () => ownCa.current(),
  });
}

function kubeconfigClient(file: string, flag: string): KubeconfigClient {
  try {
    return readKubeconfigClient(file);
  } catch (err) {
    if (err instanceof KubeconfigError) throw new Error(`${flag}: ${err.message}`);
    throw err;
  }
}
