import type { KeyObject } from 'node:crypto';
import { exportJWK, type JWK } from 'jose';
import { keyIdFromPublicKey } from './key-id.js';

/** Where kube serves its service-account issuer's OpenID discovery document and key set. */
export const openIdConfigurationPath = '/.well-known/openid-configuration';
export const jwksPath = '/openid/v1/jwks';

/** The JWS algorithm kube publishes for a verification key (pkg/serviceaccount algorithmForPublicKey). */
function algorithmFor(key: KeyObject): string | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType !== 'ec') return undefined;
  return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[key.asymmetricKeyDetails?.namedCurve ?? ''];
}

/**
 * The OpenID Provider Metadata kube serves (fields and their order as kube writes them): the issuer, where its keys
 * are, and the algorithms of those keys.
 */
export function openIdConfiguration(issuer: string, jwksUri: string, keys: readonly KeyObject[]): Record<string, unknown> {
  const algs = [...new Set(keys.map(algorithmFor).filter((a): a is string => a !== undefined))].sort();
  return {
    issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  };
}

/** The public keys as a JWK Set, each with kube's `use`, key id and algorithm (go-jose's field order). */
export async function publicJwks(keys: readonly KeyObject[]): Promise<{ keys: JWK[] }> {
  const out: JWK[] = [];
  for (const key of keys) {
    const alg = algorithmFor(key);
    if (!alg) continue;
    const { kty, crv, x, y, n, e } = await exportJWK(key);
    out.push({ use: 'sig', kty, kid: keyIdFromPublicKey(key), ...(crv ? { crv } : {}), alg, ...(x ? { x, y } : {}), ...(n ? { n, e } : {}) });
  }
  return { keys: out };
}
