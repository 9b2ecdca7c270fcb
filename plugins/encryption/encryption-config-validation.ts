import { goQuote } from '../../lib/go/go-values.js';
import type { EncryptionConfiguration, Key, ProviderConfiguration } from './encryption-config-types.js';
import { parseGroupResource } from './group-resource.js';

/** kube's EncryptionConfiguration validation (ValidateEncryptionConfiguration), its texts as field.Error prints them. */

const aesKeySizes = [16, 24, 32];
const secretboxKeySizes = [32];

const required = (field: string, detail: string) => `${field}: Required value: ${detail}`;
const invalid = (field: string, value: string, detail: string) => `${field}: Invalid value: ${value}: ${detail}`;
const atLeastOne = (what: string) => `at least one ${what} is required`;

export function validateEncryptionConfiguration(config: EncryptionConfiguration): string[] {
  if (config.resources.length === 0) return [required('resources', atLeastOne('resources'))];
  const errs: string[] = [];
  config.resources.forEach((conf, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    if (conf.resources.length === 0) errs.push(required(r, atLeastOne(r)));
    errs.push(...validateResourceOverlap(conf.resources, r), ...validateResourceNames(conf.resources, r));
    if (conf.providers.length === 0) errs.push(required(p, atLeastOne(p)));
    conf.providers.forEach((provider, j) => {
      const path = `${p}[${j}]`;
      errs.push(...validateSingleProvider(provider, path));
      // kms is refused when transformers are built, so its own fields are not checked here
      if (provider.aesgcm) errs.push(...validateKeys(provider.aesgcm.keys, `${path}.aesgcm.keys`, aesKeySizes));
      else if (provider.aescbc) errs.push(...validateKeys(provider.aescbc.keys, `${path}.aescbc.keys`, aesKeySizes));
      else if (provider.secretbox) errs.push(...validateKeys(provider.secretbox.keys, `${path}.secretbox.keys`, secretboxKeySizes));
    });
  });
  return errs;
}

function validateResourceOverlap(resources: string[], field: string): string[] {
  if (resources.length < 2) return [];
  const parsed = resources.map(parseGroupResource);
  let duplicate = false;
  let overlap = false;
  parsed.forEach((r1, i) =>
    parsed.forEach((r2, j) => {
      if (i === j) return;
      const same = r1.group === r2.group && r1.resource === r2.resource;
      if (same && !duplicate) {
        duplicate = true;
        return;
      }
      if (overlap) return;
      if (r1.group === '*' && r1.resource === '*') overlap = true;
      else if (r1.group === r2.group && (r1.resource === '*' || r2.resource === '*')) overlap = true;
    }),
  );
  const errs: string[] = [];
  const value = goStringSlice(resources);
  if (duplicate) errs.push(invalid(field, value, 'the same resource cannot be specified multiple times'));
  if (overlap) errs.push(invalid(field, value, "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"));
  return errs;
}

const nonRestResources = new Set(['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations']);

function validateResourceNames(resources: string[], field: string): string[] {
  const errs: string[] = [];
  resources.forEach((res, j) => {
    const bad = (detail: string) => errs.push(invalid(`${field}[${j}]`, goQuote(res), detail));
    const gr = parseGroupResource(res);
    if (res.toLowerCase() !== res) bad('resource name should not contain capital letters');
    else if (res === '*') bad("use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources");
    else if (nonRestResources.has(res)) bad('resources which do not have REST API/s cannot be encrypted');
    else if (gr.group === 'events.k8s.io') bad("'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file");
    else if (gr.group === 'extensions') bad("'extensions' group has been removed and cannot be used for encryption");
    else if (gr.group === '*' && gr.resource !== '*') bad('encrypting the same resource across groups is not supported');
  });
  return errs;
}

const providerFields: [keyof ProviderConfiguration, string, string][] = [
  ['aesgcm', 'AESGCM', 'AESConfiguration'],
  ['aescbc', 'AESCBC', 'AESConfiguration'],
  ['secretbox', 'Secretbox', 'SecretboxConfiguration'],
  ['identity', 'Identity', 'IdentityConfiguration'],
  ['kms', 'KMS', 'KMSConfiguration'],
];

function validateSingleProvider(provider: ProviderConfiguration, field: string): string[] {
  const found = providerFields.filter(([name]) => provider[name] !== undefined).length;
  if (found === 0) return [invalid(field, goProvider(provider), 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity')];
  if (found > 1) return [invalid(field, goProvider(provider), 'more than one provider specified in a single element, should split into different list elements')];
  return [];
}

function validateKeys(keys: Key[], field: string, sizes: number[]): string[] {
  if (keys.length === 0) return [required(field, atLeastOne('keys'))];
  return keys.flatMap((key, i) => validateKey(key, `${field}[${i}]`, sizes));
}

function validateKey(key: Key, field: string, sizes: number[]): string[] {
  const errs: string[] = [];
  if (key.name === '') errs.push(required(`${field}.name`, 'name is a mandatory field for a key'));
  if (key.secret === '') return [...errs, required(`${field}.secret`, 'secret is a mandatory field for a key')];
  const secret = decodeBase64(key.secret);
  if (!secret) return [...errs, invalid(`${field}.secret`, '"REDACTED"', 'secrets must be base64 encoded')];
  if (!sizes.includes(secret.length)) {
    errs.push(invalid(`${field}.secret`, '"REDACTED"', `secret is not of the expected length, got ${secret.length}, expected one of [${sizes.join(' ')}]`));
  }
  return errs;
}

/** Go's base64.StdEncoding.DecodeString: the standard alphabet with padding (line breaks ignored); undefined if invalid. */
export function decodeBase64(text: string): Buffer | undefined {
  const s = text.replace(/[\r\n]/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  return Buffer.from(s, 'base64');
}

/** How Go's %#v prints a []string. */
function goStringSlice(values: string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** How Go's %#v prints a ProviderConfiguration (a set pointer's address, which Go prints, is not known here). */
function goProvider(provider: ProviderConfiguration): string {
  const fields = providerFields.map(([name, goName, goType]) => `${goName}:(*apiserver.${goType})(${provider[name] === undefined ? 'nil' : '…'})`);
  return `apiserver.ProviderConfiguration{${fields.join(', ')}}`;
}
