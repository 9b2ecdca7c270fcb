import { createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { keyIdFromPublicKey } from './key-id.js';
import type { ServiceAccountClaims } from './token-claims.js';

/** A compact JWS of the claims (a bound token's or a legacy one's), RS256 with the key's kube key id in the header (kube's jwtTokenGenerator). */
export function signServiceAccountToken(claims: ServiceAccountClaims | Record<string, string>, signingKey: KeyObject): Promise<string> {
  const kid = keyIdFromPublicKey(createPublicKey(signingKey));
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid }).sign(signingKey);
}
