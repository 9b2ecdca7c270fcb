import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { validateEncryptionConfiguration } from './encryption-config-validation.js';
import type { EncryptionConfiguration, KeysConfiguration, ProviderConfiguration, ResourceConfiguration } from './encryption-config-types.js';

const providerNames = ['aesgcm', 'aescbc', 'secretbox', 'identity', 'kms'] as const;

/**
 * Reads kube-apiserver's `--encryption-provider-config` file (YAML or JSON) and validates it as kube does; a file kube
 * would refuse is an Error with kube's message.
 */
export function readEncryptionConfiguration(file: string): EncryptionConfiguration {
  return parseEncryptionConfiguration(file, readEncryptionConfigurationFile(file));
}

/** The text of the file; an Error with kube's message when it cannot be read or is empty. */
export function readEncryptionConfigurationFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`error while parsing file: error opening encryption provider configuration file ${JSON.stringify(file)}: ${(err as Error).message}`);
  }
  if (text === '') throw new Error(`error while parsing file: encryption provider configuration file ${JSON.stringify(file)} is empty`);
  return text;
}

/** The configuration in the text of `file`, validated as kube does; an Error with kube's message when it is refused. */
export function parseEncryptionConfiguration(file: string, text: string): EncryptionConfiguration {
  let config: EncryptionConfiguration;
  try {
    config = decode(text);
  } catch (err) {
    throw new Error(`error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(file)}: ${(err as Error).message}`);
  }
  const errs = validateEncryptionConfiguration(config);
  // kube's field.ErrorList aggregate: one error as itself, several (each once) as a bracketed list
  const unique = [...new Set(errs)];
  if (unique.length === 1) throw new Error(`error while parsing file: ${unique[0]}`);
  if (unique.length > 1) throw new Error(`error while parsing file: [${unique.join(', ')}]`);
  return config;
}

type Json = Record<string, unknown>;

/** The document as the v1 types; a value of the wrong type is refused with Go's JSON decoding message. */
function decode(text: string): EncryptionConfiguration {
  const doc = YAML.parseDocument(text, { logLevel: 'silent' });
  if (doc.errors.length) throw new Error(doc.errors[0]!.message);
  const obj: unknown = doc.toJS();
  if (!isObject(obj) || typeof obj.kind !== 'string' || obj.kind === '') throw new Error("Object 'Kind' is missing");
  if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') throw new Error("Object 'apiVersion' is missing");
  if (obj.kind !== 'EncryptionConfiguration' || obj.apiVersion !== 'apiserver.config.k8s.io/v1') {
    throw new Error(`no kind ${JSON.stringify(obj.kind)} is registered for version ${JSON.stringify(obj.apiVersion)} (expected EncryptionConfiguration of apiserver.config.k8s.io/v1)`);
  }
  const field = 'EncryptionConfiguration.resources';
  return { resources: list(obj.resources, field, '[]v1.ResourceConfiguration').map((r) => resourceConfiguration(r, field)) };
}

function resourceConfiguration(value: unknown, field: string): ResourceConfiguration {
  const r = object(value, field, 'v1.ResourceConfiguration');
  return {
    resources: list(r.resources, `${field}.resources`, '[]string').map((s) => string(s, `${field}.resources`)),
    providers: list(r.providers, `${field}.providers`, '[]v1.ProviderConfiguration').map((p) => providerConfiguration(p, `${field}.providers`)),
  };
}

function providerConfiguration(value: unknown, field: string): ProviderConfiguration {
  const p = object(value, field, 'v1.ProviderConfiguration');
  const provider: ProviderConfiguration = {};
  for (const name of providerNames) {
    const v = p[name];
    if (v === undefined || v === null) continue; // a null provider is an absent one, as Go's nil pointer
    if (name === 'identity') {
      object(v, `${field}.identity`, 'v1.IdentityConfiguration');
      provider.identity = {};
    } else if (name === 'kms') provider.kms = object(v, `${field}.kms`, 'v1.KMSConfiguration');
    else provider[name] = keysConfiguration(v, `${field}.${name}`, name === 'secretbox' ? 'v1.SecretboxConfiguration' : 'v1.AESConfiguration');
  }
  return provider;
}

function keysConfiguration(value: unknown, field: string, goType: string): KeysConfiguration {
  const c = object(value, field, goType);
  const keys = list(c.keys, `${field}.keys`, '[]v1.Key').map((k) => {
    const key = object(k, `${field}.keys`, 'v1.Key');
    return { name: string(key.name, `${field}.keys.name`), secret: string(key.secret, `${field}.keys.secret`) };
  });
  return { keys };
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function object(value: unknown, field: string, goType: string): Json {
  if (value === null || value === undefined) return {};
  if (!isObject(value)) throw mismatch(value, field, goType);
  return value;
}

function list(value: unknown, field: string, goType: string): unknown[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw mismatch(value, field, goType);
  return value;
}

function string(value: unknown, field: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') throw mismatch(value, field, 'string');
  return value;
}

/** Go's encoding/json UnmarshalTypeError text. */
function mismatch(value: unknown, field: string, goType: string): Error {
  const jsonType = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;
  return new Error(`json: cannot unmarshal ${jsonType} into Go struct field ${field} of type ${goType}`);
}
