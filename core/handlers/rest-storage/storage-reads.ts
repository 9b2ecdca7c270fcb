import type { StorageScope } from './storage-scope.js';
import { restContext } from './storage-scope.js';
import type { RestList, RestListOptions } from '../../contracts/rest-storage.js';
import { apiVersionOf, type KubeObject } from '../../contracts/resource-type.js';
import { parseListOptions, type ListOptions } from '../list-options.js';
import { selectorFilter } from '../read-options.js';
import { respondList, respondObject, respondUnconverted } from '../respond.js';

/** GET of one object (or a subresource) from the storage. */
export async function storageGet(scope: StorageScope): Promise<void> {
  return respondStored(scope, 200, await scope.storage.get!(restContext(scope, false), scope.info.name));
}

/**
 * Responds with an object from the storage: the resource's in the addressed version (its status too), a subresource
 * storage's as it is (its kind is its own).
 */
export function respondStored(scope: StorageScope, code: number, obj: KubeObject): void | Promise<void> {
  const typed = withTypeMeta(obj, scope);
  return scope.storage !== scope.rt.storage ? respondUnconverted(scope, code, typed) : respondObject(scope, code, typed);
}

/** LIST from the storage; kapi applies the selectors when the storage did not. */
export async function storageList(scope: StorageScope): Promise<void> {
  const options = restListOptions(scope, parseListOptions(scope.query, false));
  const list = await scope.storage.list!(restContext(scope, false), options);
  return respondList(scope, {
    items: selectedItems(list, options, scope),
    resourceVersion: list.resourceVersion ?? '',
    continueToken: list.continue || undefined,
    remainingItemCount: list.remainingItemCount,
  });
}

/** A storage list's items as kapi serves them: filtered by the selectors unless the storage did, typed. */
export function selectedItems(list: RestList, options: RestListOptions, scope: StorageScope): KubeObject[] {
  const items = list.selectorsApplied ? list.items : list.items.filter((o) => options.matches(o));
  return items.map((o) => withTypeMeta(o, scope));
}

/** The parsed list/watch options a storage gets (selectors checked: an unsupported field selector is kube's 400). */
export function restListOptions(scope: StorageScope, o: ListOptions): RestListOptions {
  const filter = selectorFilter(scope);
  return {
    labelSelector: scope.query.get('labelSelector') ?? '',
    fieldSelector: scope.query.get('fieldSelector') ?? '',
    matches: filter ?? (() => true),
    limit: o.limit,
    continue: o.continueToken,
    resourceVersion: scope.query.get('resourceVersion') ?? '',
    allowWatchBookmarks: o.allowWatchBookmarks,
  };
}

/** The object with the apiVersion and kind of the storage (filled in when the storage left them out). */
export function withTypeMeta(obj: KubeObject, scope: StorageScope): KubeObject {
  if (obj.apiVersion && obj.kind) return obj; // the common case, once per list item: nothing to build
  const kind = scope.storage.kind;
  const apiVersion = kind ? apiVersionOf(kind.group, kind.version) : apiVersionOf(scope.rt.group, scope.version);
  const { apiVersion: given, kind: givenKind, ...rest } = obj;
  return { apiVersion: given ?? apiVersion, kind: givenKind ?? kind?.kind ?? scope.rt.names.kind, ...rest };
}
