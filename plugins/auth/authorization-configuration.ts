/**
 * kube-apiserver's `--authorization-config` file: an `apiserver.config.k8s.io` AuthorizationConfiguration, the
 * ordered authorizers of the server. Read strictly (an unknown field is an error, as kube's strict decoding),
 * defaulted and validated with kube's rules and field-error texts (ValidateAuthorizationConfiguration); webhook
 * kubeconfigs are read and match conditions compiled here, so a configuration that loads is one that runs.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import YAML from 'yaml';
import { formatGoDuration, parseGoDuration } from '../../lib/go/duration.js';
import { fieldErrors, type FieldError } from '../../lib/k8s/field-errors.js';
import { isDNS1123Subdomain } from '../../lib/k8s/names.js';
import { AuthorizationMatchConditions } from './authorization-match-conditions.js';
import { unknownFields, type Shape } from './jwt/authentication-configuration.js';
import { KubeconfigError, readKubeconfigClient, type KubeconfigClient } from './kubeconfig-client.js';
import type { SubjectAccessReviewVersion } from './webhook-authorizer.js';

const versions = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1']);

/** A configuration file kube-apiserver would refuse (at start: a usage error; on reload: logged, the old one kept). */
export class AuthorizationConfigError extends Error {
  override readonly name = 'AuthorizationConfigError';
}

/** The authorizer types kapi runs. */
export type LocalAuthorizerType = 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';

export interface WebhookAuthorizerConfig {
  type: 'Webhook';
  name: string;
  timeoutMs: number;
  subjectAccessReviewVersion: SubjectAccessReviewVersion;
  failurePolicy: 'NoOpinion' | 'Deny';
  client: KubeconfigClient;
  /** 0 when that kind of answer is not cached. */
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  matchConditions: AuthorizationMatchConditions;
}

export type AuthorizerConfig = { type: LocalAuthorizerType; name: string } | WebhookAuthorizerConfig;

/** A loaded configuration: its authorizers, and its text (a reload of the same text changes nothing). */
export interface AuthorizationConfiguration {
  authorizers: AuthorizerConfig[];
  text: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const shape: Shape = {
  apiVersion: 's',
  kind: 's',
  authorizers: [
    {
      type: 's',
      name: 's',
      webhook: {
        timeout: 's',
        subjectAccessReviewVersion: 's',
        matchConditionSubjectAccessReviewVersion: 's',
        failurePolicy: 's',
        connectionInfo: { type: 's', kubeConfigFile: 's' },
        authorizedTTL: 's',
        unauthorizedTTL: 's',
        cacheAuthorizedRequests: 'b',
        cacheUnauthorizedRequests: 'b',
        matchConditions: [{ expression: 's' }],
      },
    },
  ],
};

/** kube-apiserver's known authorizer types (of which Webhook may repeat); kapi runs all but Node and ABAC. */
const knownTypes = ['ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC', 'Webhook'];
const unsupportedTypes = new Set(['Node', 'ABAC']);

/** Reads, decodes and validates the file. Throws AuthorizationConfigError with kube's text. */
export function readAuthorizationConfiguration(path: string): AuthorizationConfiguration {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new AuthorizationConfigError(`failed to read authorization config file "${path}": ${(err as Error).message}`);
  }
  return { authorizers: parseAuthorizationConfiguration(text), text };
}

export function parseAuthorizationConfiguration(text: string): AuthorizerConfig[] {
  const doc = YAML.parseDocument(text, { uniqueKeys: true, logLevel: 'silent' });
  if (doc.errors.length) throw new AuthorizationConfigError(`failed to decode authorization configuration: ${doc.errors[0]!.message}`);
  const obj: unknown = doc.toJS({ maxAliasCount: 100 });
  if (!isObject(obj)) throw new AuthorizationConfigError('failed to decode authorization configuration: not an object');
  if (obj.kind !== 'AuthorizationConfiguration' || typeof obj.apiVersion !== 'string' || !versions.has(obj.apiVersion)) {
    throw new AuthorizationConfigError(`failed to decode authorization configuration: no kind "${String(obj.kind)}" is registered for version "${String(obj.apiVersion)}"`);
  }
  const unknown = unknownFields(obj, shape);
  if (unknown.length) throw new AuthorizationConfigError(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  const errors: FieldError[] = [];
  const authorizers = validate((obj.authorizers ?? []) as Json[], errors);
  if (errors.length) {
    const texts = [...new Set(errors.map((e) => `${e.field}: ${e.message}`))];
    throw new AuthorizationConfigError(texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`);
  }
  return authorizers;
}

function validate(list: Json[], errors: FieldError[]): AuthorizerConfig[] {
  if (list.length === 0) errors.push(fieldErrors.required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  const out: AuthorizerConfig[] = [];
  list.forEach((a, i) => {
    const at = `authorizers[${i}]`;
    const type = typeof a.type === 'string' ? a.type : '';
    if (!type) return void errors.push(fieldErrors.required(`${at}.type`));
    if (!knownTypes.includes(type)) return void errors.push(fieldErrors.notSupported(`${at}.type`, type, knownTypes));
    if (seenTypes.has(type) && type !== 'Webhook') return void errors.push(fieldErrors.duplicate(`${at}.type`, type));
    seenTypes.add(type);
    const name = typeof a.name === 'string' ? a.name : '';
    if (!name) errors.push(fieldErrors.required(`${at}.name`));
    else if (seenNames.has(name)) errors.push(fieldErrors.duplicate(`${at}.name`, name));
    else {
      const bad = isDNS1123Subdomain(name);
      if (bad.length) errors.push(fieldErrors.invalid(`${at}.name`, name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    seenNames.add(name);
    if (type !== 'Webhook') {
      if (a.webhook !== undefined && a.webhook !== null) errors.push(fieldErrors.invalid(`${at}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
      if (unsupportedTypes.has(type)) errors.push({ reason: 'FieldValueNotSupported', field: `${at}.type`, message: `${type} is not supported by kapi: use RBAC, AlwaysAllow, AlwaysDeny or Webhook` });
      else out.push({ type: type as LocalAuthorizerType, name });
      return;
    }
    if (!isObject(a.webhook)) return void errors.push(fieldErrors.required(`${at}.webhook`, 'required when type=Webhook'));
    // kube names the webhook's fields under the authorizer itself (authorizers[0].timeout)
    const webhook = validateWebhook(a.webhook, at, name, errors);
    if (webhook) out.push(webhook);
  });
  return out;
}

/** A Go duration field, defaulted when absent; the decode error kube's strict decoder gives for a bad one. */
function duration(w: Json, field: string, at: string, errors: FieldError[], fallbackNs = 0n): bigint | undefined {
  const text = w[field];
  if (text === undefined || text === null || text === '') return fallbackNs;
  const ns = parseGoDuration(text as string);
  if (ns === undefined) errors.push({ reason: 'FieldValueInvalid', field: `${at}.${field}`, message: `Invalid value: ${JSON.stringify(text)}: time: invalid duration ${JSON.stringify(text)}` });
  return ns;
}

const second = 1_000_000_000n;
const toMs = (ns: bigint) => Math.max(1, Number(ns / 1_000_000n));

function validateWebhook(w: Json, at: string, name: string, errors: FieldError[]): WebhookAuthorizerConfig | undefined {
  const before = errors.length;
  const timeout = duration(w, 'timeout', at, errors);
  if (timeout === 0n) errors.push(fieldErrors.required(`${at}.timeout`));
  else if (timeout !== undefined && (timeout > 30n * second || timeout < 0n)) errors.push(fieldErrors.invalid(`${at}.timeout`, formatGoDuration(timeout), 'must be > 0s and <= 30s'));
  // v1's defaults: 5m and 30s
  const authorizedTtl = duration(w, 'authorizedTTL', at, errors, 300n * second);
  if (authorizedTtl !== undefined && authorizedTtl < 0n) errors.push(fieldErrors.invalid(`${at}.authorizedTTL`, formatGoDuration(authorizedTtl), 'must be > 0s'));
  const unauthorizedTtl = duration(w, 'unauthorizedTTL', at, errors, 30n * second);
  if (unauthorizedTtl !== undefined && unauthorizedTtl < 0n) errors.push(fieldErrors.invalid(`${at}.unauthorizedTTL`, formatGoDuration(unauthorizedTtl), 'must be > 0s'));
  const sarVersion = (w.subjectAccessReviewVersion as string | undefined) ?? '';
  if (!sarVersion) errors.push(fieldErrors.required(`${at}.subjectAccessReviewVersion`));
  else if (sarVersion !== 'v1' && sarVersion !== 'v1beta1') errors.push(fieldErrors.notSupported(`${at}.subjectAccessReviewVersion`, sarVersion, ['v1', 'v1beta1']));
  const conditions = Array.isArray(w.matchConditions) ? (w.matchConditions as { expression?: string }[]) : [];
  const conditionVersion = (w.matchConditionSubjectAccessReviewVersion as string | undefined) ?? '';
  if (!conditionVersion) {
    if (conditions.length) errors.push(fieldErrors.required(`${at}.matchConditionSubjectAccessReviewVersion`, 'required if match conditions are specified'));
  } else if (conditionVersion !== 'v1') errors.push(fieldErrors.notSupported(`${at}.matchConditionSubjectAccessReviewVersion`, conditionVersion, ['v1']));
  const failurePolicy = (w.failurePolicy as string | undefined) ?? '';
  if (!failurePolicy) errors.push(fieldErrors.required(`${at}.failurePolicy`));
  else if (failurePolicy !== 'NoOpinion' && failurePolicy !== 'Deny') errors.push(fieldErrors.notSupported(`${at}.failurePolicy`, failurePolicy, ['NoOpinion', 'Deny']));
  const client = connection(isObject(w.connectionInfo) ? w.connectionInfo : {}, at, errors);
  const matchConditions = compileConditions(conditions, at, errors);
  if (errors.length > before || !client || !matchConditions || timeout === undefined || authorizedTtl === undefined || unauthorizedTtl === undefined) return undefined;
  return {
    type: 'Webhook',
    name,
    timeoutMs: toMs(timeout),
    subjectAccessReviewVersion: sarVersion as SubjectAccessReviewVersion,
    failurePolicy: failurePolicy as 'NoOpinion' | 'Deny',
    client,
    authorizedTtlMs: w.cacheAuthorizedRequests === false ? 0 : toMs(authorizedTtl),
    unauthorizedTtlMs: w.cacheUnauthorizedRequests === false ? 0 : toMs(unauthorizedTtl),
    matchConditions,
  };
}

/** connectionInfo: a kubeconfig file, absolute, read now (InClusterConfig needs a cluster kapi does not run in). */
function connection(info: Json, at: string, errors: FieldError[]): KubeconfigClient | undefined {
  const field = `${at}.connectionInfo`;
  const type = (info.type as string | undefined) ?? '';
  const file = info.kubeConfigFile as string | undefined;
  if (type === 'InClusterConfig') {
    if (file !== undefined) errors.push(fieldErrors.invalid(`${field}.kubeConfigFile`, file, 'can only be set when type=KubeConfigFile'));
    errors.push({ reason: 'FieldValueNotSupported', field: `${field}.type`, message: 'InClusterConfig is not supported by kapi (it does not run in a cluster): use KubeConfigFile' });
    return undefined;
  }
  if (type !== 'KubeConfigFile') {
    if (!type) errors.push(fieldErrors.required(`${field}.type`));
    else errors.push(fieldErrors.notSupported(`${field}.type`, info, ['InClusterConfig', 'KubeConfigFile']));
    return undefined;
  }
  if (!file) return void errors.push(fieldErrors.required(`${field}.kubeConfigFile`));
  if (!isAbsolute(file)) return void errors.push(fieldErrors.invalid(`${field}.kubeConfigFile`, file, 'must be an absolute path'));
  try {
    return readKubeconfigClient(file);
  } catch (err) {
    if (!(err instanceof KubeconfigError)) throw err;
    errors.push(fieldErrors.invalid(`${field}.kubeConfigFile`, file, `error loading file: ${err.message}`));
    return undefined;
  }
}

/** At most 64 conditions, each a non-empty, distinct, compiling bool expression (kube's compileMatchConditions). */
function compileConditions(conditions: { expression?: string }[], at: string, errors: FieldError[]): AuthorizationMatchConditions | undefined {
  if (conditions.length > 64) {
    errors.push({ reason: 'FieldValueTooMany', field: `${at}.matchConditions`, message: `Too many: ${conditions.length}: must have at most 64 items` });
    return undefined;
  }
  const seen = new Set<string>();
  const expressions: string[] = [];
  const fields: string[] = [];
  const before = errors.length;
  conditions.forEach((c, i) => {
    const field = `${at}.matchConditions[${i}].expression`;
    const expression = c.expression ?? '';
    if (!expression.trim()) return void errors.push(fieldErrors.required(field));
    if (seen.has(expression)) return void errors.push(fieldErrors.duplicate(field, expression));
    seen.add(expression);
    expressions.push(expression);
    fields.push(field);
  });
  const compiled = AuthorizationMatchConditions.compile(expressions);
  if ('errors' in compiled) {
    for (const e of compiled.errors) errors.push(fieldErrors.invalid(fields[e.index]!, expressions[e.index], e.detail));
    return undefined;
  }
  return errors.length > before ? undefined : compiled;
}
