import { randomUUID } from 'node:crypto';
import { serviceAccountUsername } from './service-account-names.js';

/** An object a token names: a ServiceAccount or the object the token is bound to. */
export interface ClaimReference {
  name: string;
  uid: string;
}

/** The `kubernetes.io` private claim of a ServiceAccount token (pkg/serviceaccount claims.go). */
export interface KubernetesClaim {
  namespace: string;
  /** Only with tokens bound to a pod (kapi serves none; kept so tokens of kube-shaped issuers read the same). */
  node?: ClaimReference;
  pod?: ClaimReference;
  secret?: ClaimReference;
  serviceaccount: ClaimReference;
}

/** The claims of a ServiceAccount token, keys sorted as kube's JWT library writes them. */
export interface ServiceAccountClaims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  'kubernetes.io': KubernetesClaim;
  nbf: number;
  sub: string;
}

export interface ClaimsRequest {
  issuer: string;
  audiences: string[];
  namespace: string;
  serviceAccount: ClaimReference;
  /** The Secret the token is bound to. */
  secret?: ClaimReference;
  /** Seconds since the epoch. */
  now: number;
  expirationSeconds: number;
}

/** A token's claims as kube's token.Claims makes them: valid from now, a random jti, the account and bound object. */
export function serviceAccountClaims(r: ClaimsRequest): ServiceAccountClaims {
  const kubernetes: KubernetesClaim = { namespace: r.namespace, ...(r.secret ? { secret: r.secret } : {}), serviceaccount: r.serviceAccount };
  return {
    aud: r.audiences,
    exp: r.now + r.expirationSeconds,
    iat: r.now,
    iss: r.issuer,
    jti: randomUUID(),
    'kubernetes.io': kubernetes,
    nbf: r.now,
    sub: serviceAccountUsername(r.namespace, r.serviceAccount.name),
  };
}
