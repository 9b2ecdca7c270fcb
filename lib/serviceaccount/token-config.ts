import type { KeyObject } from 'node:crypto';

/**
 * How ServiceAccount tokens are issued and checked (kube-apiserver's --service-account-* flags and --api-audiences).
 */
export interface ServiceAccountTokenConfig {
  /** `--service-account-issuer`, repeatable: the first signs new tokens, all are accepted. */
  issuers: string[];
  /** `--api-audiences`: a token must name one of them; TokenRequests without audiences get them all. */
  audiences: string[];
  /** The RSA private key tokens are signed with (`--service-account-signing-key-file`). */
  signingKey: KeyObject;
  /** Public keys tokens are verified with: the signing key's, then those of `--service-account-key-file`. */
  verificationKeys: KeyObject[];
  /** `--service-account-max-token-expiration` in seconds; 0: no maximum (kube's default). */
  maxExpirationSeconds: number;
  /** The discovery document's jwks_uri (`--service-account-jwks-uri`); absent: this server's /openid/v1/jwks. */
  jwksUri?: string;
  /** The CA a long-lived token Secret's `ca.crt` holds (kube-controller-manager's `--root-ca-file`); absent: none. */
  rootCaPem?: string;
}
