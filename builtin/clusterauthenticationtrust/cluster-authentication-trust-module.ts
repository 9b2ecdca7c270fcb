import type { X509Certificate } from 'node:crypto';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { ClusterAuthenticationInfo } from '../../lib/k8s/cluster-authentication-info.js';
import { ClusterAuthenticationTrustController } from './cluster-authentication-trust-controller.js';

/** What a server publishes in `kube-system/extension-apiserver-authentication`; each CA is asked for at every sync. */
export interface ClusterAuthenticationTrustOptions {
  /** The CA certificates of client certificates this server authenticates (its `--client-ca-file`). */
  clientCa?: () => X509Certificate[];
  /** Its front-proxy configuration (`--requestheader-*`); `ca`: the request-header CA certificates to publish. */
  requestHeader?: {
    ca: () => X509Certificate[];
    allowedNames: string[];
    usernameHeaders: string[];
    groupHeaders: string[];
    extraHeaderPrefixes: string[];
  };
}

/**
 * Publishes how this server authenticates clients for extension API servers to trust (kube-apiserver's
 * ClusterAuthenticationTrustController): ConfigMap `kube-system/extension-apiserver-authentication`, which they read
 * with the RBAC Role `extension-apiserver-authentication-reader`.
 */
export function clusterAuthenticationTrust(opts: ClusterAuthenticationTrustOptions): Module {
  const required = (): ClusterAuthenticationInfo => {
    const rh = opts.requestHeader;
    return {
      clientCa: opts.clientCa?.() ?? [],
      requestHeader: {
        ca: rh?.ca() ?? [],
        allowedNames: rh?.allowedNames ?? [],
        usernameHeaders: rh?.usernameHeaders ?? [],
        groupHeaders: rh?.groupHeaders ?? [],
        extraHeaderPrefixes: rh?.extraHeaderPrefixes ?? [],
      },
    };
  };
  return defineModule('cluster-authentication-trust', (c) => {
    c.register(Tokens.Controller, { useValue: new ClusterAuthenticationTrustController(c, required) });
  }, { needs: ['configmaps', 'namespaces'] });
}
