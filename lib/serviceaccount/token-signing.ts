import { createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { keyIdFromPublicKey } from './key-id.js';
import type { ServiceAccountClaims } from './token-claims.js';

/** A compact JWS of the claims, RS256 with the key's kube key id in the header (kube's jwtTokenGenerator). */
export function signServiceAccountToken(claims: ServiceAccountClaims, signingKey: KeyObject): Promise<string> {
  const kid = keyIdFromPublicKey(createPublicKey(signingKey));
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid }).sign(signingKey);
}
