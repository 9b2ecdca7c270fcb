import type { KubeObject } from './resource-type.js';

/** Finds a namespace by name (undefined when it does not exist). */
export interface NamespaceLookup {
  lookup(name: string): Promise<KubeObject | undefined>;
}
