import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { AlwaysAllowPathsAuthorizer } from './always-allow-paths-authorizer.js';
import type { KubeconfigClient } from './kubeconfig-client.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups-authorizer.js';
import { WebhookAuthorizer } from './webhook-authorizer.js';

export interface DelegatedAuthorizationOptions {
  /** A client of the front server (`--authorization-kubeconfig`), whose SubjectAccessReview API decides. */
  client: KubeconfigClient;
  /** How long allowed / other answers are reused (k8s.io/apiserver's defaults: 10s each; 0: not cached). */
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  /** Paths any request may reach without asking (default /healthz, /readyz, /livez). */
  alwaysAllowPaths: readonly string[];
  /** Groups whose members may do anything without asking (default system:masters). */
  alwaysAllowGroups: readonly string[];
}

/** k8s.io/apiserver's DelegatingAuthorizationOptions client timeout. */
const clientTimeoutMs = 10_000;

/**
 * Authorization delegated to the front server, as an aggregated (extension) API server does it with k8s.io/apiserver's
 * DelegatingAuthorizationOptions: members of the always-allowed groups, then the always-allowed paths, then a
 * SubjectAccessReview created on the front server (authorization.k8s.io/v1), whose answer decides.
 */
export function delegatedAuthorization(options: DelegatedAuthorizationOptions): Module {
  return defineModule('delegated-authorization', (container) => {
    const authorizers = [
      ...(options.alwaysAllowGroups.length ? [new PrivilegedGroupsAuthorizer(options.alwaysAllowGroups)] : []),
      ...(options.alwaysAllowPaths.length ? [new AlwaysAllowPathsAuthorizer(options.alwaysAllowPaths)] : []),
      new WebhookAuthorizer({
        name: 'delegated',
        client: options.client,
        path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        version: 'v1',
        timeoutMs: clientTimeoutMs,
        authorizedTtlMs: options.authorizedTtlMs,
        unauthorizedTtlMs: options.unauthorizedTtlMs,
        decisionOnError: 'no-opinion',
      }),
    ];
    for (const a of authorizers) container.register(Tokens.Authorizer, { useValue: a });
  });
}
