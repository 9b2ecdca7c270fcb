/**
 * A typed client of one resource, as client-go's typed clientsets: the verbs over the resource's REST paths, bound to
 * a namespace for namespaced resources (none: all namespaces, for list, watch and deleteCollection).
 */
import type { ListMeta, ObjectMeta } from '../../core/contracts/kube-object.js';
import type { Status } from '../../core/contracts/status.js';
import type { ApiClient } from './api-client.js';
import { watchEvents, type WatchEvent } from './watch-events.js';

/** What a typed client needs to know of its resource. */
export interface ResourceDescription {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

/** An object of a typed resource. */
export interface ApiObject {
  apiVersion: string;
  kind: string;
  metadata?: ObjectMeta;
}

export interface ObjectList<T> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface WatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Events after this version (none: the current objects as ADDED first). */
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  /** Ends the watch. */
  signal?: AbortSignal;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
}

export interface ApplyOptions {
  fieldManager: string;
  /** Take over fields other managers own instead of failing with a conflict. */
  force?: boolean;
  dryRun?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** `merge` (RFC 7386) or `json` (RFC 6902); custom resources take no strategic merge patch. */
export type PatchType = 'merge' | 'json';

const patchMediaTypes: Record<PatchType, string> = { merge: 'application/merge-patch+json', json: 'application/json-patch+json' };

export class TypedClient<T extends ApiObject, L extends ObjectList<T> = ObjectList<T>> {
  constructor(
    protected readonly api: ApiClient,
    readonly resource: ResourceDescription,
    readonly namespace?: string,
  ) {}

  list(opts: ListOptions = {}): Promise<L> {
    return this.api.request({ method: 'GET', path: this.path(), query: { ...opts } });
  }

  get(name: string): Promise<T> {
    return this.api.request({ method: 'GET', path: this.path(name) });
  }

  create(object: T, opts: WriteOptions = {}): Promise<T> {
    return this.api.request({ method: 'POST', path: this.path(undefined, object), query: writeQuery(opts), body: object });
  }

  /** Replaces the object (PUT); its metadata.resourceVersion, when set, must be the stored one. */
  update(object: T, opts: WriteOptions = {}): Promise<T> {
    return this.api.request({ method: 'PUT', path: this.path(nameOf(object), object), query: writeQuery(opts), body: object });
  }

  patch(name: string, patch: unknown, type: PatchType = 'merge', opts: WriteOptions = {}): Promise<T> {
    return this.api.request({ method: 'PATCH', path: this.path(name), query: writeQuery(opts), body: patch, contentType: patchMediaTypes[type] });
  }

  /** Server-side apply: the fields `object` sets become `opts.fieldManager`'s. */
  apply(object: Partial<T> & ApiObject, opts: ApplyOptions): Promise<T> {
    return this.api.request(applyRequest(this.path(nameOf(object), object), object, opts));
  }

  /** Resolves with the object while finalizers hold it, else with the Success Status. */
  delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    return this.api.request({ method: 'DELETE', path: this.path(name), query: { dryRun: opts.dryRun ? 'All' : undefined }, body: deleteBody(opts) });
  }

  deleteCollection(opts: Pick<ListOptions, 'labelSelector' | 'fieldSelector'> & DeleteOptions = {}): Promise<L> {
    const { labelSelector, fieldSelector } = opts;
    return this.api.request({ method: 'DELETE', path: this.path(), query: { labelSelector, fieldSelector, dryRun: opts.dryRun ? 'All' : undefined }, body: deleteBody(opts) });
  }

  /** The watch's events; ERROR events reject (an ApiError; 410 Gone: the version is too old, list again). */
  async *watch(opts: WatchOptions = {}): AsyncGenerator<WatchEvent<T>> {
    const { signal, ...query } = opts;
    const res = await this.api.stream({ method: 'GET', path: this.path(), query: { ...query, watch: true }, ...(signal ? { signal } : {}) });
    yield* watchEvents<T>(res);
  }

  /** The path of the collection, or of the object `name`; the namespace is the client's, else `object`'s. */
  protected path(name?: string, object?: ApiObject): string {
    const { group, version, plural, namespaced } = this.resource;
    const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const namespace = namespaced ? (this.namespace ?? object?.metadata?.namespace) : undefined;
    const collection = namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${plural}` : `${base}/${plural}`;
    return name === undefined ? collection : `${collection}/${encodeURIComponent(name)}`;
  }
}

/** A typed client of a resource with the status subresource: its verbs on the status too. */
export class TypedStatusClient<T extends ApiObject, L extends ObjectList<T> = ObjectList<T>> extends TypedClient<T, L> {
  getStatus(name: string): Promise<T> {
    return this.api.request({ method: 'GET', path: `${this.path(name)}/status` });
  }

  updateStatus(object: T, opts: WriteOptions = {}): Promise<T> {
    return this.api.request({ method: 'PUT', path: `${this.path(nameOf(object), object)}/status`, query: writeQuery(opts), body: object });
  }

  patchStatus(name: string, patch: unknown, type: PatchType = 'merge', opts: WriteOptions = {}): Promise<T> {
    return this.api.request({ method: 'PATCH', path: `${this.path(name)}/status`, query: writeQuery(opts), body: patch, contentType: patchMediaTypes[type] });
  }

  applyStatus(object: Partial<T> & ApiObject, opts: ApplyOptions): Promise<T> {
    return this.api.request(applyRequest(`${this.path(nameOf(object), object)}/status`, object, opts));
  }
}

function nameOf(object: ApiObject): string {
  const name = object.metadata?.name;
  if (!name) throw new TypeError('the object has no metadata.name');
  return name;
}

function writeQuery(opts: WriteOptions): Record<string, string | undefined> {
  return { dryRun: opts.dryRun ? 'All' : undefined, fieldManager: opts.fieldManager };
}

function applyRequest(path: string, object: ApiObject, opts: ApplyOptions) {
  return {
    method: 'PATCH' as const,
    path,
    query: { fieldManager: opts.fieldManager, force: opts.force ? true : undefined, dryRun: opts.dryRun ? 'All' : undefined },
    body: object,
    contentType: 'application/apply-patch+yaml',
  };
}

function deleteBody(opts: DeleteOptions): object {
  const { propagationPolicy, gracePeriodSeconds, preconditions } = opts;
  return { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy, gracePeriodSeconds, preconditions };
}
