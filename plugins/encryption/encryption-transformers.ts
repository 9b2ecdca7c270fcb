import type { StorageTransformers, ValueTransformer } from '../../core/contracts/value-transformer.js';
import { aesCbcTransformer } from '../../lib/encryption/aes-cbc-transformer.js';
import { aesGcmTransformer } from '../../lib/encryption/aes-gcm-transformer.js';
import { identityTransformer } from '../../lib/encryption/identity-transformer.js';
import { secretboxTransformer } from '../../lib/encryption/secretbox-transformer.js';
import { prefixTransformers, type PrefixedTransformer } from '../../lib/encryption/prefix-transformers.js';
import type { EncryptionConfiguration, KeysConfiguration, ProviderConfiguration } from './encryption-config-types.js';
import { decodeBase64 } from './encryption-config-validation.js';
import { parseGroupResource, ruleName } from './group-resource.js';

/**
 * The transformers a validated EncryptionConfiguration gives each resource, as kube-apiserver builds them: a rule's
 * providers in order, behind kube's prefixes (`k8s:enc:aesgcm:v1:<key>:`); a resource named by several rules gets
 * the providers of all, the first rule's first; a resource no rule names is stored as it is. Throws, with kube's
 * message, on a rule masked by an earlier wildcard, and on what kapi cannot serve (kms).
 */
export function encryptionTransformers(config: EncryptionConfiguration): StorageTransformers {
  const providersOf = new Map<string, PrefixedTransformer[]>();
  const id = (group: string, resource: string) => `${group}/${resource}`;
  config.resources.forEach((rule, i) => {
    const providers = rule.providers.map((p, j) => providerTransformer(p, `resources[${i}].providers[${j}]`));
    for (const name of rule.resources) {
      const gr = parseGroupResource(name);
      for (const wildcard of [{ group: gr.group, resource: '*' }, { group: '*', resource: '*' }]) {
        if (providersOf.has(id(wildcard.group, wildcard.resource))) {
          throw new Error(`error while building transformers: resource ${JSON.stringify(ruleName(gr))} is masked by earlier rule ${JSON.stringify(ruleName(wildcard))}`);
        }
      }
      const key = id(gr.group, gr.resource);
      providersOf.set(key, [...(providersOf.get(key) ?? []), ...providers]);
    }
  });
  const transformers = new Map<string, ValueTransformer>();
  for (const [key, providers] of providersOf) transformers.set(key, prefixTransformers(providers, 'no matching prefix found'));
  return {
    forResource(group, resource) {
      return transformers.get(id(group, resource)) ?? transformers.get(id(group, '*')) ?? transformers.get(id('*', '*')) ?? identityTransformer;
    },
  };
}

function providerTransformer(provider: ProviderConfiguration, field: string): PrefixedTransformer {
  if (provider.aesgcm) return keyed('aesgcm', provider.aesgcm, 'AES', aesGcmTransformer);
  if (provider.aescbc) return keyed('aescbc', provider.aescbc, 'AES', aesCbcTransformer);
  if (provider.secretbox) return keyed('secretbox', provider.secretbox, 'Secretbox', secretboxTransformer);
  if (provider.kms) {
    throw new Error(`error while building transformers: ${field}.kms: KMS providers are not supported by kapi (it cannot call a KMS plugin): use aesgcm, aescbc or secretbox`);
  }
  return { prefix: '', transformer: identityTransformer };
}

/** A provider with named keys: `k8s:enc:<provider>:v1:` then `<key name>:`, the first key writing. */
function keyed(name: string, config: KeysConfiguration, kind: string, cipher: (secret: Uint8Array) => ValueTransformer): PrefixedTransformer {
  const keys = config.keys.map((k) => ({ prefix: `${k.name}:`, transformer: cipher(decodeBase64(k.secret)!) }));
  return { prefix: `k8s:enc:${name}:v1:`, transformer: prefixTransformers(keys, `no matching key was found for the provided ${kind} transformer`) };
}
