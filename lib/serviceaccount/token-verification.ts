import type { KeyObject } from 'node:crypto';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { keyIdFromPublicKey } from './key-id.js';
import type { KubernetesClaim } from './token-claims.js';
import { legacyIssuer, legacySubjectOf, type LegacyTokenSubject } from './legacy-token.js';

/** Why a token of a known issuer was refused (kube logs these; the client only sees 401 Unauthorized). */
export class TokenRejected extends Error {}

/** The claims of a verified token, as far as ServiceAccount authentication reads them. */
export interface VerifiedClaims {
  iss: string;
  aud: string[];
  sub?: string;
  jti?: string;
  'kubernetes.io'?: Partial<KubernetesClaim>;
  /** A legacy token's subject (its issuer `kubernetes/serviceaccount`), or undefined when its claims are incomplete. */
  legacy?: LegacyTokenSubject;
}

export interface VerificationSettings {
  issuers: readonly string[];
  /** The API audiences: a token must name one (a token without `aud` is taken as naming them, as kube's legacy tokens). */
  audiences: readonly string[];
  keys: readonly KeyObject[];
  /** Seconds since the epoch. */
  now: number;
}

/** go-jose's default leeway on exp, nbf and iat, which kube's claim validation uses. */
const leewaySeconds = 60;
const algorithms = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512'];

/**
 * Verifies a ServiceAccount token as kube's JWT authenticator does: undefined when it is not a JWT of one of the
 * issuers (another authenticator may know it); else its signature by one of the keys (those with the header's key
 * id when it names one), issuer, audiences and validity in time, or throws `TokenRejected`.
 */
export async function verifyServiceAccountToken(token: string, s: VerificationSettings): Promise<VerifiedClaims | undefined> {
  if (!hasIssuer(token, s.issuers)) return undefined;
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return undefined; // not a JWS: kube's ParseSigned fails and the token is not this authenticator's
  }
  const keys = kid ? s.keys.filter((k) => keyIdFromPublicKey(k) === kid) : s.keys;
  if (keys.length === 0) throw new TokenRejected('invalid signature, no keys found');
  const payload = await verifiedPayload(token, keys);
  const claims = parseClaims(payload);
  if (!s.issuers.includes(claims.iss)) throw new TokenRejected(`token issuer ${JSON.stringify(claims.iss)} is invalid`);
  const audiences = claims.aud.length > 0 ? claims.aud : s.audiences;
  if (!audiences.some((a) => s.audiences.includes(a))) {
    throw new TokenRejected(`token audiences ${JSON.stringify(audiences)} is invalid for the target audiences ${JSON.stringify(s.audiences)}`);
  }
  checkTimes(payload, s.now);
  return claims;
}

/** Whether the token looks like a compact JWT whose (unverified) `iss` is one of the issuers (kube's hasCorrectIssuer). */
function hasIssuer(token: string, issuers: readonly string[]): boolean {
  if (token.trimStart().startsWith('{')) return false;
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]*$/.test(parts[1]!)) return false;
  try {
    const iss = (JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    return typeof iss === 'string' && issuers.includes(iss);
  } catch {
    return false;
  }
}

async function verifiedPayload(token: string, keys: readonly KeyObject[]): Promise<Record<string, unknown>> {
  const failures: string[] = [];
  for (const key of keys) {
    try {
      const { payload } = await compactVerify(token, key, { algorithms });
      const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
      if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw new TokenRejected('token claims are not a JSON object');
      return claims as Record<string, unknown>;
    } catch (err) {
      if (err instanceof TokenRejected) throw err;
      failures.push((err as Error).message);
    }
  }
  throw new TokenRejected(failures.join(', '));
}

function parseClaims(payload: Record<string, unknown>): VerifiedClaims {
  const { iss, aud } = payload;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) && aud.every((a) => typeof a === 'string') ? (aud as string[]) : aud === undefined ? [] : undefined;
  if (typeof iss !== 'string' || !audiences) throw new TokenRejected('token claims are malformed');
  const k8s = payload['kubernetes.io'];
  return {
    iss,
    aud: audiences,
    ...(typeof payload.sub === 'string' ? { sub: payload.sub } : {}),
    ...(typeof payload.jti === 'string' ? { jti: payload.jti } : {}),
    ...(k8s !== null && typeof k8s === 'object' ? { 'kubernetes.io': k8s as Partial<KubernetesClaim> } : {}),
    ...(iss === legacyIssuer ? { legacy: legacySubjectOf(payload) } : {}),
  };
}

/** exp, nbf and iat as go-jose's Claims.Validate checks them, with its one-minute leeway. */
function checkTimes(payload: Record<string, unknown>, now: number): void {
  const time = (name: string) => {
    const v = payload[name];
    if (v !== undefined && typeof v !== 'number') throw new TokenRejected(`token claim ${name} is not a number`);
    return v;
  };
  const exp = time('exp');
  const nbf = time('nbf');
  const iat = time('iat');
  if (nbf !== undefined && now + leewaySeconds < nbf) throw new TokenRejected('service account token is not valid yet');
  if (exp !== undefined && now - leewaySeconds > exp) throw new TokenRejected('service account token has expired');
  if (iat !== undefined && now + leewaySeconds < iat) throw new TokenRejected('service account token is issued in the future');
}
