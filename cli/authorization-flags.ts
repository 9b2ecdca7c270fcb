import { resolve } from 'node:path';
import { parseDurationFlag } from './duration-flag.js';
import {
  AlwaysAllowPathsAuthorizer,
  AuthorizationConfigError,
  KubeconfigError,
  readAuthorizationConfiguration,
  readKubeconfigClient,
  type AuthorizationConfiguration,
  type KubeconfigClient,
  type WebhookAuthorizerOptions,
} from '../index.js';
import { parseList } from './comma-list.js';
import { UsageError } from './usage-error.js';

export const authorizationUsage = `  --authorization-mode A,B    authorizers asked in this order, kube's names: RBAC, AlwaysAllow, AlwaysDeny, Webhook
                              (default RBAC; the admin token's user is in system:masters, bound to cluster-admin)
  --authorization-webhook-config-file FILE
                              kubeconfig of the SubjectAccessReview webhook of mode Webhook: its cluster's server URL
                              is POSTed a review (30s timeout), as its user (token, tokenFile or client certificate)
  --authorization-webhook-version v1|v1beta1
                              the SubjectAccessReview version sent to the webhook (default v1beta1, as kube-apiserver)
  --authorization-webhook-cache-authorized-ttl DURATION
                              how long the webhook's allow answers are reused, 0 never (default 5m0s; 10s with
                              --authorization-kubeconfig)
  --authorization-webhook-cache-unauthorized-ttl DURATION
                              how long its other answers are reused, 0 never (default 30s; 10s with
                              --authorization-kubeconfig)
  --authorization-config FILE AuthorizationConfiguration (apiserver.config.k8s.io/v1): the authorizers in order (RBAC,
                              AlwaysAllow, AlwaysDeny, Webhook with match conditions and failure policy); followed
                              while serving. Not with --authorization-mode or --authorization-webhook-* flags
  --authorization-kubeconfig FILE
                              delegate authorization to the server this kubeconfig names (kapi as an aggregated API
                              server): a SubjectAccessReview created there decides, instead of the local authorizers
                              (not with --authorization-mode or --authorization-config)
  --authorization-always-allow-paths A,B
                              with --authorization-kubeconfig: paths allowed without asking, a trailing * for a prefix
                              (default /healthz,/readyz,/livez)
  --authorization-always-allow-groups A,B
                              with --authorization-kubeconfig: groups allowed everything without asking (default
                              system:masters)
`;

export const authorizationFlagOptions = {
  'authorization-mode': { type: 'string' },
  'authorization-webhook-config-file': { type: 'string' },
  'authorization-webhook-version': { type: 'string' },
  'authorization-webhook-cache-authorized-ttl': { type: 'string' },
  'authorization-webhook-cache-unauthorized-ttl': { type: 'string' },
  'authorization-config': { type: 'string' },
  'authorization-kubeconfig': { type: 'string' },
  'authorization-always-allow-paths': { type: 'string' },
  'authorization-always-allow-groups': { type: 'string' },
} as const;

type AuthorizationFlag = keyof typeof authorizationFlagOptions;
type Values = Partial<Record<AuthorizationFlag, string>>;

/** The `--authorization-mode` values kapi serves (kube's names). */
export type AuthorizationMode = 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny' | 'Webhook';

/** Mode Webhook's authorizer, from the `--authorization-webhook-*` flags (its kubeconfig read). */
export type AuthorizationWebhookServeOptions = WebhookAuthorizerOptions;

/** `--authorization-kubeconfig` and the flags that go with it. */
export interface DelegatedAuthorizationServeOptions {
  client: KubeconfigClient;
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  alwaysAllowPaths: string[];
  alwaysAllowGroups: string[];
}

/**
 * One of three ways to authorize: `authorizationModes` (the default, RBAC), an AuthorizationConfiguration file (the
 * modes then empty), or delegation to a front server (the modes then empty).
 */
export interface AuthorizationServeOptions {
  /** `--authorization-mode`, in order (default RBAC). */
  authorizationModes: AuthorizationMode[];
  /** With mode Webhook. */
  authorizationWebhook?: AuthorizationWebhookServeOptions;
  /** `--authorization-config`, read and validated. */
  authorizationConfig?: { configFile: string; initial: AuthorizationConfiguration };
  delegatedAuthorization?: DelegatedAuthorizationServeOptions;
}

const webhookFlags = ['authorization-webhook-config-file', 'authorization-webhook-version', 'authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl'] as const;

/**
 * kube-apiserver's authorization flags with its messages, and k8s.io/apiserver's delegated authorization flags. The
 * files they name are read now: a bad one is a usage error.
 */
export function parseAuthorizationFlags(values: Values): AuthorizationServeOptions {
  const configFile = values['authorization-config'];
  const kubeconfig = values['authorization-kubeconfig'];
  const legacySet = values['authorization-mode'] !== undefined || webhookFlags.some((f) => values[f] !== undefined);
  if (configFile) {
    if (legacySet) throw new UsageError('--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
    if (kubeconfig) throw new UsageError('--authorization-kubeconfig and --authorization-config can not be specified together');
  }
  if (!kubeconfig) {
    for (const flag of ['authorization-always-allow-paths', 'authorization-always-allow-groups'] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} is only used with --authorization-kubeconfig`);
    }
  }
  if (configFile) return { authorizationModes: [], authorizationConfig: { configFile: resolve(configFile), initial: readConfig(resolve(configFile)) } };
  if (kubeconfig) return { authorizationModes: [], delegatedAuthorization: parseDelegated(values, kubeconfig) };
  const modes = parseAuthorizationModes(values['authorization-mode'] ?? 'RBAC');
  const webhookConfig = values['authorization-webhook-config-file'];
  if (modes.includes('Webhook') && !webhookConfig) throw new UsageError("authorization-mode Webhook's authorization config file not passed");
  if (webhookConfig && !modes.includes('Webhook')) throw new UsageError('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (!webhookConfig) return { authorizationModes: modes };
  const version = values['authorization-webhook-version'] ?? 'v1beta1';
  if (version !== 'v1' && version !== 'v1beta1') throw new UsageError(`unsupported webhook authorizer version "${version}", supported versions are "v1", "v1beta1"`);
  return {
    authorizationModes: modes,
    // kube-apiserver's flags make a webhook named "default" with a 30s timeout, of no opinion when it fails
    authorizationWebhook: {
      name: 'default',
      client: readClient('authorization-webhook-config-file', webhookConfig),
      version,
      timeoutMs: 30_000,
      decisionOnError: 'no-opinion',
      authorizedTtlMs: parseTtl(values, 'authorization-webhook-cache-authorized-ttl', 5 * 60_000),
      unauthorizedTtlMs: parseTtl(values, 'authorization-webhook-cache-unauthorized-ttl', 30_000),
    },
  };
}

/**
 * `--authorization-kubeconfig`: kapi is an extension server and the front decides (k8s.io/apiserver's delegating
 * authorizer replaces local ones, so `--authorization-mode` and the webhook file are refused with it).
 */
function parseDelegated(values: Values, kubeconfig: string): DelegatedAuthorizationServeOptions {
  if (values['authorization-mode'] !== undefined) throw new UsageError('--authorization-kubeconfig replaces the local authorizers: it can not be specified with --authorization-mode');
  for (const flag of ['authorization-webhook-config-file', 'authorization-webhook-version'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} can not be specified with --authorization-kubeconfig (the front server's SubjectAccessReview API, v1, is asked)`);
  }
  const paths = values['authorization-always-allow-paths'];
  const groups = values['authorization-always-allow-groups'];
  const alwaysAllowPaths = paths !== undefined ? parseList(paths) : ['/healthz', '/readyz', '/livez'];
  try {
    new AlwaysAllowPathsAuthorizer(alwaysAllowPaths);
  } catch (err) {
    throw new UsageError(`--authorization-always-allow-paths: ${(err as Error).message}`);
  }
  return {
    client: readClient('authorization-kubeconfig', kubeconfig),
    authorizedTtlMs: parseTtl(values, 'authorization-webhook-cache-authorized-ttl', 10_000),
    unauthorizedTtlMs: parseTtl(values, 'authorization-webhook-cache-unauthorized-ttl', 10_000),
    alwaysAllowPaths,
    alwaysAllowGroups: groups !== undefined ? parseList(groups) : ['system:masters'],
  };
}

const authorizationModes: readonly AuthorizationMode[] = ['RBAC', 'AlwaysAllow', 'AlwaysDeny', 'Webhook'];

/**
 * kube-apiserver's `--authorization-mode`: a comma list of its mode names, each once, at least one. kube's Node mode
 * is refused (kapi has no nodes), as is ABAC.
 */
function parseAuthorizationModes(text: string): AuthorizationMode[] {
  const modes = parseList(text);
  if (modes.length === 0) throw new UsageError('--authorization-mode: at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const mode of modes) {
    if (mode === 'Node' || mode === 'ABAC') throw new UsageError(`--authorization-mode ${mode} is not supported by kapi: use ${authorizationModes.join(', ')}`);
    if (!(authorizationModes as readonly string[]).includes(mode)) {
      throw new UsageError(`--authorization-mode: authorization-mode "${mode}" is not a valid mode (valid: ${authorizationModes.join(', ')})`);
    }
    if (seen.has(mode)) throw new UsageError(`--authorization-mode: authorization-mode "${mode}" has mode specified more than once`);
    seen.add(mode);
  }
  return modes as AuthorizationMode[];
}

/** A cache TTL flag: a Go duration, 0 for no caching. */
function parseTtl(values: Values, flag: AuthorizationFlag, fallbackMs: number): number {
  const text = values[flag];
  if (text === undefined) return fallbackMs;
  const nanos = parseDurationFlag(flag, text);
  if (nanos < 0n) throw new UsageError(`invalid --${flag} "${text}": must not be negative`);
  return nanos === 0n ? 0 : Math.max(1, Number(nanos / 1_000_000n));
}

function readClient(flag: string, file: string): KubeconfigClient {
  try {
    return readKubeconfigClient(resolve(file));
  } catch (err) {
    if (err instanceof KubeconfigError) throw new UsageError(`--${flag} ${file}: ${err.message}`);
    throw err;
  }
}

function readConfig(file: string): AuthorizationConfiguration {
  try {
    return readAuthorizationConfiguration(file);
  } catch (err) {
    if (err instanceof AuthorizationConfigError) throw new UsageError(`--authorization-config ${file}: ${err.message}`);
    throw err;
  }
}
