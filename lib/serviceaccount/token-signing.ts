import { createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { keyIdFromPublicKey } from './key-id.js';
import type { ServiceAccountClaims } from './token-claims.js';
import type { LegacyTokenClaims } from './legacy-token.js';

/** A compact JWS of the claims (a bound token's or a legacy one's), RS256 with the key's kube key id in the header (kube's jwtTokenGenerator). */
export function signServiceAccountToken(claims: ServiceAccountClaims | LegacyTokenClaims, signingKey: KeyObject): Promise<string> {
  const kid = keyIdFromPublicKey(createPublicKey(signingKey));
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid }).sign(signingKey);
}
