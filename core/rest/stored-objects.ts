import { errors, ApiError } from '../contracts/api-error.js';
import type { RestContext, RestListOptions, RestStorage } from '../contracts/rest-storage.js';
import type { KubeObject } from '../contracts/resource-type.js';
import type { ResourceStore } from '../store/resource-store.js';

/** How a loopback client reads a resource's objects as stored: in kapi's KV store, or in the resource's own storage. */
export interface StoredObjects {
  /** The object, or undefined. */
  find(namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Every object, of one namespace or ('') of all. */
  list(namespace: string): Promise<KubeObject[]>;
}

export function kvObjects(store: ResourceStore): StoredObjects {
  return {
    find: (namespace, name) => store.find(namespace, name),
    list: async (namespace) => (await store.list(namespace)).items,
  };
}

/** A whole, unfiltered list's options (kube's ListOptions with nothing set). */
export const listEverything: RestListOptions = {
  labelSelector: '',
  fieldSelector: '',
  matches: () => true,
  continue: '',
  resourceVersion: '',
  allowWatchBookmarks: false,
};

/**
 * The objects of a resource served from its own RestStorage, typed by `typed` (a storage may leave apiVersion and kind
 * out); a storage that cannot get or list answers kube's 405.
 */
export function restStorageObjects(storage: RestStorage, context: (namespace: string) => RestContext, typed: (obj: KubeObject) => KubeObject): StoredObjects {
  return {
    async find(namespace, name) {
      if (!storage.get) throw errors.methodNotAllowed();
      try {
        return typed(await storage.get({ ...context(namespace), name }, name));
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      }
    },
    async list(namespace) {
      if (!storage.list) throw errors.methodNotAllowed();
      return (await listAllPages(storage.list.bind(storage), context(namespace))).items.map(typed);
    },
  };
}

/** Every object a storage lists, page after page, and the first page's resourceVersion. */
export async function listAllPages(list: NonNullable<RestStorage['list']>, ctx: RestContext): Promise<{ items: KubeObject[]; resourceVersion: string }> {
  const items: KubeObject[] = [];
  let resourceVersion = '';
  for (let next = ''; ; ) {
    const page = await list(ctx, { ...listEverything, continue: next });
    items.push(...page.items);
    resourceVersion ||= page.resourceVersion ?? '';
    if (!page.continue) return { items, resourceVersion };
    next = page.continue;
  }
}
