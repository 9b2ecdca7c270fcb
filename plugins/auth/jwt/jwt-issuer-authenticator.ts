/**
 * One `jwt` authenticator of the AuthenticationConfiguration (kube's oidc.Authenticator): a bearer token whose
 * (unverified) `iss` is this issuer is verified — signature by the issuer's keys with an allowed algorithm, `exp`
 * (required) and `nbf`, an audience among the configured ones — then mapped to a user by the claim mappings and
 * checked by the validation rules. A token of another issuer is not this authenticator's (null); a token of this
 * issuer that fails is refused (the client sees kube's bare 401; a TokenReview, the reason).
 */
import { decodeJwt, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { UserInfo } from '../../../core/contracts/authenticator.js';
import type { JwtAuthenticatorConfig } from './authentication-configuration.js';
import { evaluateOnClaims, evaluateOnUser, stringList, type ClaimExpression, type Evaluation } from './claim-expressions.js';
import { discoverIssuerKeys } from './issuer-keys.js';
import { log } from '../../../lib/log/logger.js';

/** kube's default `--oidc-signing-algs`: the algorithm OpenID Connect requires providers to implement. */
export const defaultSigningAlgorithms = ['RS256'];
/** How often kube retries reading an issuer's discovery document until it succeeds. */
const initRetryMs = 10_000;

/** A refusal of a token this authenticator handles; the text is kube's (logged, not sent). */
export class TokenRefused extends Error {}

export class JwtIssuerAuthenticator {
  private keys?: JWTVerifyGetKey;
  private initializing?: Promise<void>;
  private retry?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly config: JwtAuthenticatorConfig,
    private readonly algorithms: readonly string[] = defaultSigningAlgorithms,
  ) {}

  get issuer(): string {
    return this.config.spec.issuer.url;
  }

  /** Starts reading the issuer's keys, retrying every 10 s until it succeeds (kube initializes asynchronously). */
  start(): void {
    void this.init();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
  }

  private init(): Promise<void> {
    this.initializing ??= discoverIssuerKeys(this.config.spec.issuer).then(
      (keys) => {
        this.keys = keys;
      },
      (err: Error) => {
        log.error(`oidc authenticator: initializing issuer ${this.issuer}: ${err.message}`);
        this.initializing = undefined;
        if (!this.closed) this.retry = setTimeout(() => void this.init(), initRetryMs).unref();
      },
    );
    return this.initializing;
  }

  /** Whether `token` names this issuer (kube's hasCorrectIssuer, on the unverified payload). */
  handles(token: string): boolean {
    if (token.trimStart().startsWith('{') || token.split('.').length !== 3) return false;
    try {
      return decodeJwt(token).iss === this.issuer;
    } catch {
      return false;
    }
  }

  /** The user of a token `handles` accepted; throws TokenRefused. */
  async authenticate(token: string): Promise<UserInfo> {
    if (!this.keys) await this.init();
    if (!this.keys) throw new TokenRefused('oidc: authenticator not initialized');
    const claims = await this.verify(token, this.keys);
    return this.userOf(claims);
  }

  private async verify(token: string, keys: JWTVerifyGetKey): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: this.issuer, algorithms: [...this.algorithms], requiredClaims: ['exp'] });
      const audiences = this.config.spec.issuer.audiences;
      const tokenAudiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
      if (!tokenAudiences.some((a) => audiences.includes(a))) {
        throw new TokenRefused(`oidc: verify token: oidc: expected audience in ${JSON.stringify(audiences)} got ${JSON.stringify(tokenAudiences)}`);
      }
      return payload as Record<string, unknown>;
    } catch (err) {
      if (err instanceof TokenRefused) throw err;
      if (err instanceof joseErrors.JOSEError) throw new TokenRefused(`oidc: verify token: ${err.message}`);
      throw err;
    }
  }

  private userOf(claims: Record<string, unknown>): UserInfo {
    const c = this.config;
    const mappings = c.spec.claimMappings;
    const user: UserInfo = { username: this.username(claims), groups: [] };
    const groups = this.groups(claims);
    const uid = mappings.uid?.claim ? stringClaim(claims, mappings.uid.claim, 'uid claim') : c.uid ? stringResult(c.uid, claims, 'uid') : '';
    if (uid) user.uid = uid;
    const extra: Record<string, string[]> = {};
    for (const { key, expression } of c.extra) {
      const values = listResult(evaluateOnClaims(expression, claims), `extra claim expression: ${expression.text}`);
      if (values.length) extra[key] = values;
    }
    if (Object.keys(extra).length) user.extra = extra;
    for (const [claim, value] of c.requiredClaims) {
      if (!Object.hasOwn(claims, claim)) throw new TokenRefused(`oidc: required claim ${claim} not present in ID token`);
      const got = stringClaim(claims, claim, 'claim');
      if (got !== value) throw new TokenRefused(`oidc: required claim ${claim} value does not match. Got = ${got}, want = ${value}`);
    }
    for (const rule of c.claimRules) checkRule(evaluateOnClaims(rule.expression, claims), rule, 'claim validation expression');
    user.groups = groups;
    for (const rule of c.userRules) checkRule(evaluateOnUser(rule.expression, user), rule, 'user info validation rule');
    return user;
  }

  private username(claims: Record<string, unknown>): string {
    if (this.config.username) return stringResult(this.config.username, claims, 'username');
    const { claim = '', prefix } = this.config.spec.claimMappings.username;
    const username = stringClaim(claims, claim, 'username claims');
    // as kube: an email is a username only when verified, if the token says
    if (claim === 'email' && Object.hasOwn(claims, 'email_verified')) {
      if (typeof claims.email_verified !== 'boolean') throw new TokenRefused(`oidc: parse 'email_verified' claim: not a bool`);
      if (!claims.email_verified) throw new TokenRefused('oidc: email not verified');
    }
    return prefix ? prefix + username : username;
  }

  private groups(claims: Record<string, unknown>): string[] {
    const { claim, prefix } = this.config.spec.claimMappings.groups ?? {};
    if (claim && Object.hasOwn(claims, claim)) {
      const value = claims[claim];
      // a single string is a group too (kube's stringOrArray)
      const groups = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((g) => typeof g === 'string') ? (value as string[]) : undefined;
      if (!groups) throw new TokenRefused(`oidc: parse groups claim "${claim}": not a string or a list of strings`);
      return prefix ? groups.map((g) => prefix + g) : groups;
    }
    if (!this.config.groups) return [];
    return listResult(evaluateOnClaims(this.config.groups, claims), 'group claim expression');
  }
}

function stringClaim(claims: Record<string, unknown>, claim: string, what: string): string {
  if (!Object.hasOwn(claims, claim)) throw new TokenRefused(`oidc: parse ${what} "${claim}": claim not present`);
  const value = claims[claim];
  if (typeof value !== 'string') throw new TokenRefused(`oidc: parse ${what} "${claim}": json: cannot unmarshal ${typeof value} into Go value of type string`);
  return value;
}

function stringResult(expression: ClaimExpression, claims: Record<string, unknown>, what: string): string {
  const { value, error } = evaluateOnClaims(expression, claims);
  if (error !== undefined) throw new TokenRefused(`oidc: error evaluating ${what} claim expression: ${error}`);
  if (typeof value !== 'string') throw new TokenRefused(`oidc: error evaluating ${what} claim expression: ${what} claim expression must return a string`);
  return value;
}

function listResult({ value, error }: Evaluation, what: string): string[] {
  if (error !== undefined) throw new TokenRefused(`oidc: error evaluating ${what}: ${error}`);
  const list = stringList(value);
  if (typeof list === 'string') throw new TokenRefused(`oidc: error evaluating ${what}: ${list}`);
  return list;
}

function checkRule({ value, error }: Evaluation, rule: { expression: ClaimExpression; message?: string }, what: string): void {
  if (error !== undefined) throw new TokenRefused(`oidc: error evaluating ${what}: ${error}`);
  if (typeof value !== 'boolean') throw new TokenRefused(`oidc: error evaluating ${what}: rule expression must return a boolean`);
  if (!value) throw new TokenRefused(`oidc: error evaluating ${what}: ${rule.message ?? `validation expression '${rule.expression.text}' failed`}`);
}
