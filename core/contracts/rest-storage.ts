import type { KubeObject } from './kube-object.js';
import type { UserInfo } from './authenticator.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';

/**
 * A resource served from its own storage (computed on read, another database, an external API), in the spirit of
 * k8s.io/apiserver's rest.Getter/Lister/Watcher/Creater/Updater/GracefulDeleter. Every capability is optional:
 * discovery lists exactly the verbs implemented (plus `patch` with get and update, as kube does), any other verb is
 * kube's 405. Throw an `ApiError` (`errors.notFound`, `errors.modified`, …) to answer with a kube Status; anything
 * else is a 500.
 *
 * kapi does the rest around it: decoding, admission, schema validation, system metadata (uid, creationTimestamp,
 * generation), codecs, Tables, selectors the storage does not apply, watch framing.
 */
export interface RestStorage<T extends KubeObject = KubeObject> {
  /**
   * The kind this storage reads and writes when it is not the resource's own: a subresource's (e.g. a `summary`
   * answering with a `ClockSummary`). Absent: the resource's kind, in the addressed version.
   */
  kind?: { group: string; version: string; kind: string };
  /**
   * The OpenAPI v3 schema of `kind` (as a CRD's openAPIV3Schema), published in OpenAPI v2 and v3 as that kind's
   * definition, with the standard apiVersion, kind and metadata properties. Absent: the kind is published as an object
   * that keeps any fields. Only published: kapi neither prunes nor validates writes by it (the storage validates what
   * it takes). Without `kind`, the resource's own schema describes the subresource and this is not used.
   */
  schema?: JSONSchemaProps;
  /**
   * A storage that answers creates without keeping anything (kube's review kinds: SelfSubjectRulesReview,
   * TokenReview): the object it is handed needs no name, gets no system metadata and is not validated by kapi;
   * admission still sees it.
   */
  reviews?: boolean;
  /** One object; throw `errors.notFound` when there is none. */
  get?(ctx: RestContext, name: string): Promise<T>;
  list?(ctx: RestContext, options: RestListOptions): Promise<RestList<T>>;
  /**
   * The changes after `options.resourceVersion` (or from now), until `ctx.signal` aborts: the client went away.
   * A watch-list (`sendInitialEvents=true`) of a storage that also lists is kapi's, as kube's cacher serves it: kapi
   * lists (at least as new as the resourceVersion asked for), sends the selected objects as ADDED, then (when the
   * client allows bookmarks) the BOOKMARK marked `k8s.io/initial-events-end` with the list's resourceVersion, and
   * follows this watch from that resourceVersion. A watch from no resourceVersion or "0" starts with the listed
   * objects the same way (no end marker). Without `list`, the watch starts as asked, with no initial events.
   */
  watch?(ctx: RestContext, options: RestListOptions): AsyncIterable<RestWatchEvent<T>>;
  /**
   * Stores a new object, already decoded, defaulted, admitted and validated by kapi (system metadata set, no
   * resourceVersion); returns it as stored (with its resourceVersion). Store nothing when `ctx.dryRun`.
   * Throw `errors.alreadyExists` when the name is taken.
   */
  create?(ctx: RestContext, object: T): Promise<T>;
  /**
   * Updates `name`: call `update` with the object as stored now; it resolves with the admitted new object (the
   * request's body or patch applied to it, admitted and validated; a resourceVersion other than the stored one is
   * kube's 409 already). Store that unless the stored object changed in the meantime, and return it as stored. If it
   * did change, call `update` again with the new stored object, as kube's storage retries (a request that named a
   * resourceVersion then gets its 409 from `update`), or throw `errors.modified`. Store nothing when `ctx.dryRun`.
   */
  update?(ctx: RestContext, name: string, update: (old: T) => Promise<T>): Promise<T>;
  /**
   * Deletes `name`: call `admit` with the object as stored now (admission may refuse the delete), then remove it
   * (not when `ctx.dryRun`) and return the deleted object. If it changed in the meantime, call `admit` again with the
   * new stored object, as kube retries a delete.
   */
  delete?(ctx: RestContext, name: string, admit: (old: T) => Promise<void>): Promise<T>;
}

/** What a storage call knows about its request. */
export interface RestContext {
  /** The request's namespace ('' for cluster-scoped resources and lists across namespaces). */
  namespace: string;
  /** The object the request names ('' for a collection): for a subresource, the object it belongs to. */
  name: string;
  /** The authenticated user. */
  user: UserInfo;
  /** Aborted when the client goes away (a watch ends then). */
  signal: AbortSignal;
  /** A dry-run write: validate everything, store nothing. */
  dryRun: boolean;
  /** Adds a `Warning` header to the answer (kube's warning.AddWarning). */
  warn?(text: string): void;
}

/** A list's or watch's options, parsed and checked by kapi (kube's ListOptions). */
export interface RestListOptions {
  /** The label selector as sent ('' for none). */
  labelSelector: string;
  /** The field selector as sent ('' for none). */
  fieldSelector: string;
  /** Whether an object is selected by both selectors (kube's semantics; always true without selectors). */
  matches(object: KubeObject): boolean;
  /** At most this many items (0 or absent: all); answer with `continue` when there are more. */
  limit?: number;
  /** The `continue` token of a previous page ('' for none). */
  continue: string;
  /** The resourceVersion asked for ('' for unset: the most recent state). */
  resourceVersion: string;
  /** A watch that asked for BOOKMARK events (kapi drops those it did not ask for). */
  allowWatchBookmarks: boolean;
}

export interface RestList<T extends KubeObject = KubeObject> {
  items: T[];
  /** The list's metadata.resourceVersion. */
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  /** True when `items` are already filtered by the selectors; otherwise kapi filters them. */
  selectorsApplied?: boolean;
}

/** One change a watch reports. A BOOKMARK carries only `metadata.resourceVersion`. */
export interface RestWatchEvent<T extends KubeObject = KubeObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: T;
}

/** The verbs discovery lists for a storage, in kube's order (`patch`, server-side apply included, with get and update). */
export function restStorageVerbs(storage: RestStorage): string[] {
  const verbs: string[] = [];
  if (storage.create) verbs.push('create');
  if (storage.delete) verbs.push('delete');
  if (storage.list && storage.delete) verbs.push('deletecollection'); // kapi lists, then deletes one by one
  if (storage.get) verbs.push('get');
  if (storage.list) verbs.push('list');
  if (storage.get && storage.update) verbs.push('patch');
  if (storage.update) verbs.push('update');
  if (storage.watch) verbs.push('watch');
  return verbs;
}
