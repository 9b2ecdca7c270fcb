import { serviceAccountUsername } from './service-account-names.js';

/** The issuer of kube's legacy ServiceAccount tokens, those of `kubernetes.io/service-account-token` Secrets. */
export const legacyIssuer = 'kubernetes/serviceaccount';

/** What a legacy token names, in its flat private claims (pkg/serviceaccount legacy.go). */
export interface LegacyTokenSubject {
  namespace: string;
  secretName: string;
  serviceAccountName: string;
  serviceAccountUid: string;
}

const claimNames = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

/** A legacy token's claims: the issuer, the subject and the four private claims. */
export type LegacyTokenClaims = { iss: string; sub: string } & Record<string, string>;

/** A legacy token's claims, keys sorted as kube's JWT library writes them; no audience and no expiry. */
export function legacyTokenClaims(s: LegacyTokenSubject): LegacyTokenClaims {
  return {
    iss: legacyIssuer,
    [claimNames.namespace]: s.namespace,
    [claimNames.secretName]: s.secretName,
    [claimNames.serviceAccountName]: s.serviceAccountName,
    [claimNames.serviceAccountUid]: s.serviceAccountUid,
    sub: serviceAccountUsername(s.namespace, s.serviceAccountName),
  };
}

/**
 * The subject of a legacy token's verified claims; undefined when one is missing or `sub` names another account
 * (kube refuses such a token).
 */
export function legacySubjectOf(payload: Record<string, unknown>): LegacyTokenSubject | undefined {
  const subject: Partial<LegacyTokenSubject> = {};
  for (const [field, claim] of Object.entries(claimNames) as [keyof LegacyTokenSubject, string][]) {
    const value = payload[claim];
    if (typeof value !== 'string' || value === '') return undefined;
    subject[field] = value;
  }
  const { namespace, serviceAccountName } = subject as LegacyTokenSubject;
  return payload.sub === serviceAccountUsername(namespace, serviceAccountName) ? (subject as LegacyTokenSubject) : undefined;
}
