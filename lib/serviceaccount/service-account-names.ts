import { isDNS1123Label, isDNS1123Subdomain } from '../k8s/names.js';

/** The user name kube gives a ServiceAccount (k8s.io/apiserver/pkg/authentication/serviceaccount MakeUsername). */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The groups of every ServiceAccount of a namespace (MakeGroupNames), before kube adds `system:authenticated`. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** The extra key naming the credential a user authenticated with (authentication.kubernetes.io/credential-id). */
export const credentialIdExtraKey = 'authentication.kubernetes.io/credential-id';

/** The credential id of a token with a `jti` claim (kube's CredentialIDForJTI). */
export function credentialIdForJti(jti: string): string {
  return `JTI=${jti}`;
}

const usernamePrefix = 'system:serviceaccount:';

/**
 * The namespace and name of a ServiceAccount's user name (SplitUsername): undefined when `username` is no
 * `system:serviceaccount:<namespace>:<name>` with a DNS-label namespace and a DNS-subdomain name.
 */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(usernamePrefix)) return undefined;
  const parts = username.slice(usernamePrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}
