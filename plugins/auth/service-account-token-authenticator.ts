import { createPublicKey, timingSafeEqual } from 'node:crypto';
import { CredentialsRejected, type AuthenticationRequest, type Authenticator, type UserInfo } from '../../core/contracts/authenticator.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { defineModule, resolveLater, type Module } from '../../core/contracts/module.js';
import type { ObjectClients } from '../../core/contracts/object-client.js';
import type { KubeObject } from '../../core/contracts/kube-object.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { ServiceAccountTokenConfig } from '../../lib/serviceaccount/token-config.js';
import { TokenRejected, verifyServiceAccountToken, type VerifiedClaims } from '../../lib/serviceaccount/token-verification.js';
import { legacyIssuer, type LegacyTokenSubject } from '../../lib/serviceaccount/legacy-token.js';
import type { ClaimReference } from '../../lib/serviceaccount/token-claims.js';
import { credentialIdExtraKey, credentialIdForJti, serviceAccountGroups, serviceAccountUsername } from '../../lib/serviceaccount/service-account-names.js';

/** kube's mark on a legacy token Secret whose token no longer authenticates (set by its legacy token cleaner, or by hand). */
const invalidSinceLabel = 'kubernetes.io/legacy-token-invalid-since';

/**
 * Authenticates ServiceAccount tokens (JWTs of the configured issuers) as kube's service-account authenticator with
 * `--service-account-lookup` (its default): signature, issuer, audience and expiry, then the ServiceAccount — and the
 * Secret a token is bound to — must still exist, undeleted, with the uid the token names. Legacy tokens (issuer
 * `kubernetes/serviceaccount`, those of token Secrets) are checked as kube's legacy validator checks them. Bearer
 * tokens that are not JWTs of these issuers are left to the other authenticators.
 */
export class ServiceAccountTokenAuthenticator implements Authenticator {
  readonly name = 'service-account-token';
  private readonly keys;

  constructor(
    private readonly config: ServiceAccountTokenConfig,
    private readonly objects: () => ObjectClients,
  ) {
    this.keys = [createPublicKey(config.signingKey), ...config.verificationKeys];
  }

  async authenticate(req: AuthenticationRequest): Promise<UserInfo | null> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) return null;
    try {
      const token = match[1]!;
      const claims = await verifyServiceAccountToken(token, {
        issuers: [...this.config.issuers, legacyIssuer],
        audiences: req.audiences ?? this.config.audiences,
        keys: this.keys,
        now: Math.floor(Date.now() / 1000),
      });
      if (!claims) return null;
      return claims.iss === legacyIssuer ? await this.legacyUser(claims.legacy, token) : await this.user(claims);
    } catch (err) {
      if (err instanceof TokenRejected) throw new CredentialsRejected(err.message);
      throw err;
    }
  }

  /** kube's claim validator: the objects the token names must be the live ones. */
  private async user(claims: VerifiedClaims): Promise<UserInfo> {
    const k8s = claims['kubernetes.io'];
    const namespace = k8s?.namespace;
    const account = k8s?.serviceaccount;
    if (!namespace || !isReference(account)) throw new TokenRejected('service account token claims are incomplete');
    if (k8s.pod || k8s.node) throw new TokenRejected('tokens bound to pods or nodes name objects kapi does not serve');
    await this.requireLive('serviceaccounts', namespace, account);
    if (k8s.secret !== undefined) {
      if (!isReference(k8s.secret)) throw new TokenRejected('service account token claims are incomplete');
      await this.requireLive('secrets', namespace, k8s.secret);
    }
    return {
      username: serviceAccountUsername(namespace, account.name),
      uid: account.uid,
      groups: [...serviceAccountGroups(namespace), 'system:authenticated'],
      ...(claims.jti ? { extra: { [credentialIdExtraKey]: [credentialIdForJti(claims.jti)] } } : {}),
    };
  }

  /**
   * kube's legacy token validator: the token must still be the one its Secret holds (deleting the Secret revokes it),
   * and the ServiceAccount it names must be the live one.
   */
  private async legacyUser(subject: LegacyTokenSubject | undefined, token: string): Promise<UserInfo> {
    if (!subject) throw new TokenRejected('service account token claims are incomplete');
    const { namespace, serviceAccountName, serviceAccountUid } = subject;
    const secret = await this.live('secrets', namespace, subject.secretName);
    if (!secret || secret.metadata?.labels?.[invalidSinceLabel]) throw new TokenRejected('service account token has been invalidated');
    const held = Buffer.from((secret as { data?: Record<string, string> }).data?.token ?? '', 'base64');
    const presented = Buffer.from(token);
    if (held.length !== presented.length || !timingSafeEqual(held, presented)) throw new TokenRejected("service account token does not match server's copy");
    await this.requireLive('serviceaccounts', namespace, { name: serviceAccountName, uid: serviceAccountUid });
    return {
      username: serviceAccountUsername(namespace, serviceAccountName),
      uid: serviceAccountUid,
      groups: [...serviceAccountGroups(namespace), 'system:authenticated'],
    };
  }

  /** The object, unless it is missing, not served or being deleted. */
  private async live(resource: string, namespace: string, name: string): Promise<KubeObject | undefined> {
    let obj: KubeObject | undefined;
    try {
      obj = await this.objects().forResource({ group: '', resource }).get(namespace, name);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err; // 404: not served
    }
    return obj && !obj.metadata?.deletionTimestamp ? obj : undefined;
  }

  private async requireLive(resource: string, namespace: string, ref: ClaimReference): Promise<void> {
    const obj = await this.live(resource, namespace, ref.name);
    if (!obj) throw new TokenRejected(`${resource} ${namespace}/${ref.name} has been deleted`);
    if (obj.metadata?.uid !== ref.uid) throw new TokenRejected(`${resource} ${namespace}/${ref.name} UID (${obj.metadata?.uid}) does not match claim (${ref.uid})`);
  }
}

function isReference(value: unknown): value is ClaimReference {
  const ref = value as Partial<ClaimReference> | undefined;
  return typeof ref?.name === 'string' && ref.name !== '' && typeof ref.uid === 'string';
}

/** Registers the ServiceAccount token authenticator (after the static tokens, as in kube's authenticator chain). */
export function serviceAccountTokenAuth(config: ServiceAccountTokenConfig): Module {
  return defineModule('service-account-token-auth', (container) => {
    container.register(Tokens.Authenticator, { useValue: new ServiceAccountTokenAuthenticator(config, resolveLater(container, Tokens.Objects)) });
  });
}
