/**
 * kube-apiserver's `--authentication-config` file: an `apiserver.config.k8s.io` AuthenticationConfiguration whose
 * `jwt` authenticators kapi serves. Read strictly (an unknown field is an error, as kube's strict decoding), then
 * validated with kube's rules and field-error texts (ValidateAuthenticationConfiguration); the CEL expressions are
 * compiled here, so a configuration that loads is one that runs.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { fieldErrors, type FieldError } from '../../../lib/k8s/field-errors.js';
import { compileClaimExpression, compileUserExpression, selectsClaim, type ClaimExpression } from './claim-expressions.js';

const versions = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1']);

export interface PrefixedClaimOrExpression {
  claim?: string;
  prefix?: string;
  expression?: string;
}

export interface JwtAuthenticatorSpec {
  issuer: { url: string; discoveryURL?: string; certificateAuthority?: string; audiences: string[]; audienceMatchPolicy?: string };
  claimValidationRules?: { claim?: string; requiredValue?: string; expression?: string; message?: string }[];
  claimMappings: {
    username: PrefixedClaimOrExpression;
    groups?: PrefixedClaimOrExpression;
    uid?: { claim?: string; expression?: string };
    extra?: { key: string; valueExpression: string }[];
  };
  userValidationRules?: { expression: string; message?: string }[];
}

/** One JWT authenticator, validated, its expressions compiled. */
export interface JwtAuthenticatorConfig {
  spec: JwtAuthenticatorSpec;
  username?: ClaimExpression;
  groups?: ClaimExpression;
  uid?: ClaimExpression;
  extra: { key: string; expression: ClaimExpression }[];
  /** `claim`/`requiredValue` rules: the claim must be present and a string of this value. */
  requiredClaims: Map<string, string>;
  claimRules: { expression: ClaimExpression; message?: string }[];
  userRules: { expression: ClaimExpression; message?: string }[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Reads and validates the file; throws an Error worded as kube-apiserver's start failure. `disallowedIssuers` are
 * the ServiceAccount token issuers (kube refuses a JWT issuer that overlaps them).
 */
export function readAuthenticationConfiguration(path: string, disallowedIssuers: readonly string[] = []): JwtAuthenticatorConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read authentication config file "${path}": ${(err as Error).message}`);
  }
  return parseAuthenticationConfiguration(text, disallowedIssuers);
}

export function parseAuthenticationConfiguration(text: string, disallowedIssuers: readonly string[] = []): JwtAuthenticatorConfig[] {
  const doc = YAML.parseDocument(text, { uniqueKeys: true, logLevel: 'silent' });
  if (doc.errors.length) throw new Error(`failed to decode authentication configuration: ${doc.errors[0].message}`);
  const obj: unknown = doc.toJS({ maxAliasCount: 100 });
  if (!isObject(obj)) throw new Error('failed to decode authentication configuration: not an object');
  if (obj.kind !== 'AuthenticationConfiguration' || typeof obj.apiVersion !== 'string' || !versions.has(obj.apiVersion)) {
    throw new Error(`failed to decode authentication configuration: no kind "${String(obj.kind)}" is registered for version "${String(obj.apiVersion)}"`);
  }
  const unknown = unknownFields(obj, shape);
  if (unknown.length) throw new Error(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  const jwt = (obj.jwt ?? []) as JwtAuthenticatorSpec[];
  const { configs, errors } = validateConfiguration(jwt, new Set(disallowedIssuers));
  if (errors.length) {
    const texts = errors.map((e) => `${e.field}: ${e.message}`);
    throw new Error(texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`);
  }
  return configs;
}

/**
 * The fields a configuration file may hold, each with the JSON type it must have: 's' string, 'b' boolean, `[x]` a
 * list of x, an object its own shape.
 */
export type Shape = { [field: string]: 's' | 'b' | Shape | [Shape | 's'] };
const claimOrExpression: Shape = { claim: 's', prefix: 's', expression: 's' };
const shape: Shape = {
  apiVersion: 's',
  kind: 's',
  jwt: [
    {
      issuer: { url: 's', discoveryURL: 's', certificateAuthority: 's', audiences: ['s'], audienceMatchPolicy: 's', egressSelectorType: 's' },
      claimValidationRules: [{ claim: 's', requiredValue: 's', expression: 's', message: 's' }],
      claimMappings: { username: claimOrExpression, groups: claimOrExpression, uid: { claim: 's', expression: 's' }, extra: [{ key: 's', valueExpression: 's' }] },
      userValidationRules: [{ expression: 's', message: 's' }],
    },
  ],
};

/** Unknown fields and fields of the wrong JSON type, by path (kube's strict decoder refuses both). */
export function unknownFields(value: Json, s: Shape, path = ''): string[] {
  const found: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const p = path ? `${path}.${key}` : key;
    const want = Object.hasOwn(s, key) ? s[key] : undefined;
    if (want === undefined) found.push(p);
    else if (v === null) continue;
    else if (want === 's') {
      if (typeof v !== 'string') found.push(`${p} (must be a string)`);
    } else if (want === 'b') {
      if (typeof v !== 'boolean') found.push(`${p} (must be a boolean)`);
    } else if (Array.isArray(want)) {
      if (!Array.isArray(v)) found.push(`${p} (must be a list)`);
      else v.forEach((item, i) => found.push(...(want[0] === 's' ? (typeof item === 'string' ? [] : [`${p}[${i}] (must be a string)`]) : isObject(item) ? unknownFields(item, want[0], `${p}[${i}]`) : [`${p}[${i}] (must be an object)`])));
    } else if (!isObject(v)) found.push(`${p} (must be an object)`);
    else found.push(...unknownFields(v, want, p));
  }
  return found;
}

function validateConfiguration(jwt: JwtAuthenticatorSpec[], disallowed: Set<string>): { configs: JwtAuthenticatorConfig[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (jwt.length > 64) return { configs: [], errors: [{ reason: 'FieldValueTooMany', field: 'jwt', message: `Too many: ${jwt.length}: must have at most 64 items` }] };
  const configs: JwtAuthenticatorConfig[] = [];
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  jwt.forEach((a, i) => {
    const at = `jwt[${i}]`;
    const { config, errors: errs } = validateJwtAuthenticator(a, at, disallowed);
    errors.push(...errs);
    if (config) configs.push(config);
    const url = a.issuer?.url ?? '';
    if (seenIssuers.has(url)) errors.push(fieldErrors.duplicate(`${at}.issuer.url`, url));
    seenIssuers.add(url);
    const discovery = a.issuer?.discoveryURL;
    if (discovery) {
      if (seenDiscovery.has(discovery)) errors.push(fieldErrors.duplicate(`${at}.issuer.discoveryURL`, discovery));
      seenDiscovery.add(discovery);
    }
  });
  return { configs, errors };
}

function validateJwtAuthenticator(a: JwtAuthenticatorSpec, at: string, disallowed: Set<string>): { config?: JwtAuthenticatorConfig; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const issuer = a.issuer ?? ({} as JwtAuthenticatorSpec['issuer']);
  if (!issuer.url) errors.push(fieldErrors.required(`${at}.issuer.url`));
  else errors.push(...urlErrors(issuer.url, `${at}.issuer.url`, disallowed));
  if (issuer.discoveryURL) {
    if (issuer.url && issuer.url.replace(/\/+$/, '') === issuer.discoveryURL.replace(/\/+$/, '')) {
      errors.push(fieldErrors.invalid(`${at}.issuer.discoveryURL`, issuer.discoveryURL, 'discoveryURL must be different from URL'));
    }
    errors.push(...urlErrors(issuer.discoveryURL, `${at}.issuer.discoveryURL`, new Set()));
  }
  errors.push(...audienceErrors(issuer.audiences ?? [], issuer.audienceMatchPolicy ?? '', `${at}.issuer`));
  if (issuer.certificateAuthority) {
    const caError = certificateAuthorityError(issuer.certificateAuthority);
    if (caError) errors.push(fieldErrors.invalid(`${at}.issuer.certificateAuthority`, '<omitted>', caError));
  }
  if ((issuer as Json).egressSelectorType) {
    errors.push(fieldErrors.invalid(`${at}.issuer.egressSelectorType`, (issuer as Json).egressSelectorType, 'kapi has no egress selector'));
  }

  let usesEmail = false;
  let usesEmailVerified = false;
  const requiredClaims = new Map<string, string>();
  const claimRules: JwtAuthenticatorConfig['claimRules'] = [];
  const seenExpressions = new Set<string>();
  (a.claimValidationRules ?? []).forEach((rule, i) => {
    const p = `${at}.claimValidationRules[${i}]`;
    if (rule.claim && rule.expression) errors.push(fieldErrors.invalid(p, rule.claim, "claim and expression can't both be set"));
    else if (!rule.claim && !rule.expression) errors.push(fieldErrors.required(p, 'claim or expression is required'));
    else if (rule.claim) {
      if (rule.message) errors.push(fieldErrors.invalid(`${p}.message`, rule.message, 'may not be specified when claim is set'));
      if (requiredClaims.has(rule.claim)) errors.push(fieldErrors.duplicate(`${p}.claim`, rule.claim));
      requiredClaims.set(rule.claim, rule.requiredValue ?? '');
    } else {
      const expression = rule.expression!;
      if (rule.requiredValue) errors.push(fieldErrors.invalid(`${p}.requiredValue`, rule.requiredValue, 'may not be specified when expression is set'));
      if (seenExpressions.has(expression)) return void errors.push(fieldErrors.duplicate(`${p}.expression`, expression));
      seenExpressions.add(expression);
      const compiled = compileClaimExpression(expression);
      if (typeof compiled === 'string') return void errors.push(fieldErrors.invalid(`${p}.expression`, expression, compiled));
      usesEmailVerified ||= selectsClaim(compiled, 'email_verified');
      claimRules.push({ expression: compiled, ...(rule.message ? { message: rule.message } : {}) });
    }
  });

  const mappings = a.claimMappings ?? ({} as JwtAuthenticatorSpec['claimMappings']);
  const username = prefixedClaimOrExpression(mappings.username ?? {}, `${at}.claimMappings.username`, true, errors);
  if (username) {
    usesEmail = selectsClaim(username, 'email');
    usesEmailVerified ||= selectsClaim(username, 'email_verified');
  }
  const groups = prefixedClaimOrExpression(mappings.groups ?? {}, `${at}.claimMappings.groups`, false, errors);
  let uid: ClaimExpression | undefined;
  const uidMapping = mappings.uid ?? {};
  if (uidMapping.claim && uidMapping.expression) errors.push(fieldErrors.invalid(`${at}.claimMappings.uid`, '', "claim and expression can't both be set"));
  else if (uidMapping.expression) uid = compiledOrError(uidMapping.expression, `${at}.claimMappings.uid.expression`, errors);

  const extra: JwtAuthenticatorConfig['extra'] = [];
  const seenKeys = new Set<string>();
  (mappings.extra ?? []).forEach((m, i) => {
    const p = `${at}.claimMappings.extra[${i}]`;
    const key = m.key ?? '';
    errors.push(...extraKeyErrors(key, `${p}.key`));
    if (seenKeys.has(key)) return void errors.push(fieldErrors.duplicate(`${p}.key`, key));
    seenKeys.add(key);
    if (!m.valueExpression) return void errors.push(fieldErrors.required(`${p}.valueExpression`));
    const compiled = compiledOrError(m.valueExpression, `${p}.valueExpression`, errors);
    if (!compiled) return;
    usesEmailVerified ||= selectsClaim(compiled, 'email_verified');
    extra.push({ key, expression: compiled });
  });
  if (usesEmail && !usesEmailVerified) {
    errors.push(
      fieldErrors.invalid(
        `${at}.claimMappings.username.expression`,
        mappings.username?.expression,
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }

  const userRules: JwtAuthenticatorConfig['userRules'] = [];
  const seenUserExpressions = new Set<string>();
  (a.userValidationRules ?? []).forEach((rule, i) => {
    const p = `${at}.userValidationRules[${i}].expression`;
    if (!rule.expression) return void errors.push(fieldErrors.required(p));
    if (seenUserExpressions.has(rule.expression)) return void errors.push(fieldErrors.duplicate(p, rule.expression));
    seenUserExpressions.add(rule.expression);
    const compiled = compileUserExpression(rule.expression);
    if (typeof compiled === 'string') return void errors.push(fieldErrors.invalid(p, rule.expression, compiled));
    userRules.push({ expression: compiled, ...(rule.message ? { message: rule.message } : {}) });
  });

  if (errors.length) return { errors };
  return {
    config: { spec: a, ...(username ? { username } : {}), ...(groups ? { groups } : {}), ...(uid ? { uid } : {}), extra, requiredClaims, claimRules, userRules },
    errors,
  };
}

function compiledOrError(expression: string, field: string, errors: FieldError[]): ClaimExpression | undefined {
  const compiled = compileClaimExpression(expression);
  if (typeof compiled !== 'string') return compiled;
  errors.push(fieldErrors.invalid(field, expression, compiled));
  return undefined;
}

/** kube's validatePrefixClaimOrExpression: the compiled expression, when the mapping is one. */
function prefixedClaimOrExpression(m: PrefixedClaimOrExpression, field: string, required: boolean, errors: FieldError[]): ClaimExpression | undefined {
  if (m.expression && m.claim) errors.push(fieldErrors.invalid(field, '', "claim and expression can't both be set"));
  else if (!m.expression && !m.claim) {
    if (required) errors.push(fieldErrors.required(field, 'claim or expression is required'));
  } else if (m.expression) {
    if (m.prefix !== undefined) errors.push(fieldErrors.invalid(`${field}.prefix`, m.prefix, 'may not be specified when expression is set'));
    return compiledOrError(m.expression, `${field}.expression`, errors);
  } else if (m.prefix === undefined) {
    errors.push(fieldErrors.required(`${field}.prefix`, 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return undefined;
}

function urlErrors(raw: string, field: string, disallowed: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (disallowed.has(raw)) errors.push(fieldErrors.invalid(field, raw, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`));
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    errors.push(fieldErrors.invalid(field, raw, `parse ${JSON.stringify(raw)}: invalid URL`));
    return errors;
  }
  if (u.protocol !== 'https:') errors.push(fieldErrors.invalid(field, raw, 'URL scheme must be https'));
  if (u.username || u.password) errors.push(fieldErrors.invalid(field, raw, 'URL must not contain a username or password'));
  if (u.search) errors.push(fieldErrors.invalid(field, raw, 'URL must not contain a query'));
  if (u.hash) errors.push(fieldErrors.invalid(field, raw, 'URL must not contain a fragment'));
  return errors;
}

function audienceErrors(audiences: string[], policy: string, at: string): FieldError[] {
  const field = `${at}.audiences`;
  if (audiences.length === 0) return [fieldErrors.required(field, `at least one ${field} is required`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  audiences.forEach((a, i) => {
    if (!a) errors.push(fieldErrors.required(`${field}[${i}]`));
    if (seen.has(a)) errors.push(fieldErrors.duplicate(`${field}[${i}]`, a));
    seen.add(a);
  });
  if (audiences.length > 1 && policy !== 'MatchAny') errors.push(fieldErrors.invalid(`${at}.audienceMatchPolicy`, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  if (audiences.length === 1 && policy !== '' && policy !== 'MatchAny') {
    errors.push(fieldErrors.invalid(`${at}.audienceMatchPolicy`, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  }
  return errors;
}

/** client-go's cert.NewPoolFromBytes errors: no certificate, or one that does not parse. */
function certificateAuthorityError(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return 'data does not contain any valid RSA or ECDSA certificates';
  for (const b of blocks) {
    try {
      new X509Certificate(b);
    } catch (err) {
      return (err as Error).message;
    }
  }
  return undefined;
}

/** Extra keys: domain-prefixed paths, lowercase, not in Kubernetes' own domains (kube's checks and texts). */
function extraKeyErrors(key: string, field: string): FieldError[] {
  if (!key) return [fieldErrors.required(field)];
  const errors: FieldError[] = [];
  const slash = key.indexOf('/');
  const domain = slash > 0 ? key.slice(0, slash) : '';
  if (!domain || slash === key.length - 1) errors.push(fieldErrors.invalid(field, key, 'must be a domain-prefixed path (such as "acme.io/foo")'));
  else if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(domain)) {
    errors.push(fieldErrors.invalid(field, domain, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  }
  if (key !== key.toLowerCase()) errors.push(fieldErrors.invalid(field, key, 'must be lowercase'));
  if (domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io')) {
    errors.push(fieldErrors.invalid(field, key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
  }
  return errors;
}
