import { resolve } from 'node:path';
import { parseDurationFlag } from './duration-flag.js';
import { parseBool } from './bool-flag.js';
import { UsageError } from './usage-error.js';

export const authenticationDelegationUsage = `  --authentication-token-webhook-config-file FILE
                              kubeconfig of a webhook that reviews the bearer tokens kapi does not know itself: a
                              TokenReview is POSTed to its server URL
  --authentication-token-webhook-version VERSION
                              TokenReview version the webhook speaks: v1 or v1beta1 (default v1beta1, kube-apiserver's)
  --authentication-token-webhook-cache-ttl DURATION
                              how long a token's review is used (default 2m0s; 10s with --authentication-kubeconfig)
  --authentication-kubeconfig FILE
                              kubeconfig of the front server (kube-apiserver or kapi) kapi is an extension API server of:
                              bearer tokens kapi does not know are reviewed by it (TokenReview: its user needs
                              system:auth-delegator), and unless --client-ca-file and --requestheader-client-ca-file are
                              given, the client CA and front-proxy settings it publishes in ConfigMap
                              kube-system/extension-apiserver-authentication are trusted, read at start and every 10s
                              (its user needs the Role extension-apiserver-authentication-reader)
  --authentication-skip-lookup
                              do not read that ConfigMap
  --authentication-tolerate-lookup-failure
                              start even when that ConfigMap cannot be read (default false: kapi does not start)
`;

export const authenticationDelegationFlagOptions = {
  'authentication-token-webhook-config-file': { type: 'string' },
  'authentication-token-webhook-version': { type: 'string' },
  'authentication-token-webhook-cache-ttl': { type: 'string' },
  'authentication-kubeconfig': { type: 'string' },
  'authentication-skip-lookup': { type: 'string' },
  'authentication-tolerate-lookup-failure': { type: 'string' },
} as const;

/** Given without a value, they mean true. */
export const authenticationDelegationBooleanFlags = ['--authentication-skip-lookup', '--authentication-tolerate-lookup-failure'];

type Flag = keyof typeof authenticationDelegationFlagOptions;

/** kube-apiserver's `--authentication-token-webhook-*`. */
export interface TokenWebhookServeOptions {
  /** Absolute. */
  configFile: string;
  version: 'v1' | 'v1beta1';
  cacheTtlMs: number;
}

/** k8s.io/apiserver's delegating authentication options, as an extension API server takes them. */
export interface DelegatedAuthenticationServeOptions {
  /** Absolute; `--authentication-kubeconfig`. */
  kubeconfig: string;
  cacheTtlMs: number;
  skipLookup: boolean;
  tolerateLookupFailure: boolean;
}

export interface AuthenticationDelegationServeOptions {
  tokenWebhook?: TokenWebhookServeOptions;
  delegatedAuthentication?: DelegatedAuthenticationServeOptions;
}

/** The webhook's and the front server's flags; the others are ignored without them, as kube ignores them. */
export function parseAuthenticationDelegationFlags(values: Partial<Record<Flag, string>>): AuthenticationDelegationServeOptions {
  const configFile = values['authentication-token-webhook-config-file'];
  const kubeconfig = values['authentication-kubeconfig'];
  if (configFile && kubeconfig) throw new UsageError('--authentication-token-webhook-config-file and --authentication-kubeconfig cannot be used together: each reviews the bearer tokens kapi does not know');
  const ttl = values['authentication-token-webhook-cache-ttl'];
  if (configFile) {
    const version = values['authentication-token-webhook-version'] ?? 'v1beta1';
    if (version !== 'v1' && version !== 'v1beta1') throw new UsageError(`unsupported authentication webhook version "${version}", supported versions are "v1", "v1beta1"`);
    return { tokenWebhook: { configFile: resolve(configFile), version, cacheTtlMs: ttl === undefined ? 120_000 : parseCacheTtl(ttl) } };
  }
  if (kubeconfig) {
    return {
      delegatedAuthentication: {
        kubeconfig: resolve(kubeconfig),
        cacheTtlMs: ttl === undefined ? 10_000 : parseCacheTtl(ttl),
        skipLookup: parseBool('authentication-skip-lookup', values['authentication-skip-lookup'] ?? 'false'),
        tolerateLookupFailure: parseBool('authentication-tolerate-lookup-failure', values['authentication-tolerate-lookup-failure'] ?? 'false'),
      },
    };
  }
  return {};
}

/** A Go duration, as pflag's DurationVar takes it; 0 or less: answers are not kept. */
function parseCacheTtl(text: string): number {
  const nanos = parseDurationFlag('authentication-token-webhook-cache-ttl', text);
  return nanos <= 0n ? 0 : Math.max(1, Number(nanos / 1_000_000n));
}
