import type { ResourceType } from '../contracts/resource-type.js';
import type { StorageTransformers, ValueTransformer } from '../contracts/value-transformer.js';
import { identityTransformer } from '../../lib/encryption/identity-transformer.js';

/**
 * The transformer of a resource's stored values: its resource as stored (a resource stored as another shares that
 * one's), or kube's identity provider when no transformers are configured.
 */
export function resourceTransformer(transformers: StorageTransformers | undefined, rt: ResourceType): ValueTransformer {
  if (!transformers) return identityTransformer;
  const { group, plural } = rt.storedAs ?? { group: rt.group, plural: rt.names.plural };
  return transformers.forResource(group, plural);
}
