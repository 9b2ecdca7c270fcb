import { createHash, type KeyObject } from 'node:crypto';

/**
 * The key id kube gives a service-account signing key (pkg/serviceaccount keyIDFromPublicKey): the SHA-256 of the
 * public key's PKIX (SubjectPublicKeyInfo) DER encoding, base64url without padding. A hash, so the id reveals nothing
 * of the key; stable, so tokens and the JWKS name the same key across restarts.
 */
export function keyIdFromPublicKey(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}
