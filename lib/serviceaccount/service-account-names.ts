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
