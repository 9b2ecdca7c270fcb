import type { RuntimeConfig } from '../index.js';

/**
 * `--runtime-config` values (the flag may repeat) as kube's ConfigurationMap reads them: comma-separated `key=value`,
 * both trimmed, a bare key having the value '', a later key replacing an earlier one. Nothing is refused here: the
 * server checks the keys against what it serves, as kube-apiserver does.
 */
export function parseRuntimeConfig(values: readonly string[]): RuntimeConfig {
  const entries = new Map<string, string>();
  for (const value of values) {
    for (const entry of value.split(',')) {
      if (entry === '') continue;
      const eq = entry.indexOf('=');
      entries.set((eq < 0 ? entry : entry.slice(0, eq)).trim(), eq < 0 ? '' : entry.slice(eq + 1).trim());
    }
  }
  return Object.fromEntries(entries); // own properties even for a key such as __proto__
}
