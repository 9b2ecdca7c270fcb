import { hasPrefix } from './has-prefix.js';
import type { TransformedValue, ValueTransformer } from './value-transformer.js';

/** A transformer and the prefix its values are stored behind (empty for the identity provider). */
export interface PrefixedTransformer {
  prefix: string;
  transformer: ValueTransformer;
}

/**
 * kube's value.NewPrefixTransformers: writes with the first transformer behind its prefix; reads with the first whose
 * prefix the value starts with, marking the value stale when that is not the first. A transformer without a prefix
 * (identity) that fails lets the others try, so identity can come first while encrypted values are still readable.
 * `noMatch` is the error when none applies.
 */
export function prefixTransformers(entries: readonly PrefixedTransformer[], noMatch: string): ValueTransformer {
  if (entries.length === 0) throw new TypeError('prefixTransformers needs at least one transformer');
  const prefixed = entries.map((e) => ({ prefix: Buffer.from(e.prefix, 'utf8'), transformer: e.transformer }));
  const writer = prefixed[0]!;
  return {
    fromStorage(stored: Uint8Array, key: string): TransformedValue {
      const failures: Error[] = [];
      for (let i = 0; i < prefixed.length; i++) {
        const { prefix, transformer } = prefixed[i]!;
        if (!hasPrefix(stored, prefix)) continue;
        let read: TransformedValue;
        try {
          read = transformer.fromStorage(stored.subarray(prefix.length), key);
        } catch (err) {
          if (prefix.length > 0) throw err;
          failures.push(err as Error);
          continue;
        }
        return { data: read.data, stale: read.stale || i !== 0 };
      }
      // as kube's aggregate error: one error reads as itself, several as a bracketed list
      if (failures.length === 1) throw failures[0]!;
      if (failures.length > 1) throw new Error(`[${failures.map((e) => e.message).join(', ')}]`);
      throw new Error(noMatch);
    },
    toStorage(data: Uint8Array, key: string): Uint8Array {
      return Buffer.concat([writer.prefix, writer.transformer.toStorage(data, key)]);
    },
  };
}
