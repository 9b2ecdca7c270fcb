import type { KVStore, KVWatch } from '../contracts/kv-store.js';
import { CompactedError, FutureRevisionError } from '../contracts/kv-store.js';
import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import { errors, type Qualified } from '../contracts/api-error.js';
import { collectionPrefix, objectKey } from './keys.js';
import { decodeListed, decodeStored, encodeStored, objectJson, readStored, withResourceVersion } from './object-codec.js';
import { resourceTransformer } from './resource-transformer.js';
import type { StorageTransformers, ValueTransformer } from '../contracts/value-transformer.js';
import { continueExpired, decodeContinue, encodeContinue } from './continue-token.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { checkDeletePreconditions, type DeletePreconditions } from './delete-preconditions.js';
import { finalizersForDeletion, type DeletePropagation } from './deletion-propagation.js';

export interface ListOptions {
  limit?: number;
  continueToken?: string;
  /** Read at exactly this revision (0 = latest). */
  revision?: number;
  /** Keep only objects for which this returns true (label/field selectors). */
  filter?: (obj: KubeObject) => boolean;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

export type { DeletePreconditions } from './delete-preconditions.js';

export interface WriteOptions {
  /** dryRun=All: run everything, persist nothing. */
  dryRun?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  /** The garbage collector's policy for the object's dependents (DeleteOptions.propagationPolicy, orphanDependents). */
  propagation?: DeletePropagation;
}

export interface UpdateOptions extends WriteOptions {
  /** The UID the object must have (a PUT body's metadata.uid), checked before `update` runs, as kube's storage does. */
  uid?: string;
  /**
   * A missing object is checked against the UID precondition as an empty one before it is a 404 (kube's storage
   * with ignoreNotFound, for kinds that allow create on update): a UID then fails as a 409.
   */
  missingMeetsPreconditions?: boolean;
}

/** Transforms the current object into the desired one inside an optimistic-concurrency retry loop. */
export type UpdateFn = (current: KubeObject) => Promise<KubeObject> | KubeObject;

/**
 * Resource semantics over the KV contract for one resource type: key layout, resourceVersion, optimistic
 * concurrency, graceful deletion with finalizers, paged lists. It knows nothing of HTTP or admission.
 */
export class ResourceStore {
  private readonly transformer: ValueTransformer;

  constructor(
    private readonly kv: KVStore,
    readonly rt: ResourceType,
    /** How values are stored (encryption at rest); absent: as they are. */
    transformers?: StorageTransformers,
  ) {
    this.transformer = resourceTransformer(transformers, rt);
  }

  private qualified(name?: string): Qualified {
    return { group: this.rt.group, resource: this.rt.names.plural, name };
  }

  async get(namespace: string, name: string, revision = 0): Promise<KubeObject> {
    const { kv } = await this.storage(() => this.kv.get(objectKey(this.rt, namespace, name), { revision }));
    if (!kv) throw errors.notFound(this.qualified(name));
    return decodeStored(kv, this.transformer);
  }

  /** The object or undefined, at the latest revision. */
  async find(namespace: string, name: string): Promise<KubeObject | undefined> {
    const { kv } = await this.kv.get(objectKey(this.rt, namespace, name));
    return kv ? decodeStored(kv, this.transformer) : undefined;
  }

  async list(namespace: string, opts: ListOptions = {}): Promise<ListResult> {
    const prefix = collectionPrefix(this.rt, namespace);
    let revision = opts.revision ?? 0;
    let startAfterKey: string | undefined;
    let continuing: string | undefined;
    if (opts.continueToken) {
      const state = decodeContinue(opts.continueToken);
      revision = Math.max(0, state.revision); // -1: continue at the latest revision
      startAfterKey = prefix + state.startAfter;
      continuing = state.startAfter;
    }
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const items: KubeObject[] = [];
    let readRevision = revision;
    let lastKey: string | undefined;
    let more = false;
    let remaining: number | undefined;
    // With a filter, keep reading pages until `limit` matches are found (as kube's storage-side filtering does).
    for (;;) {
      const want = limit ? limit - items.length : 0;
      const batch = limit ? Math.max(want, opts.filter ? 128 : want) : 0;
      const res = await this.storage(() => this.kv.range(prefix, { startAfterKey, limit: batch, revision: readRevision }), continuing);
      readRevision = res.revision;
      let consumedAll = true;
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i];
        const obj = decodeListed(kv, this.transformer);
        lastKey = kv.key;
        if (!opts.filter || opts.filter(obj)) items.push(obj);
        if (limit && items.length >= limit) {
          consumedAll = i === res.kvs.length - 1;
          more = !consumedAll || res.more;
          if (!opts.filter) remaining = res.count - (i + 1);
          break;
        }
      }
      if (limit && items.length >= limit) break;
      if (!res.more || !limit) break;
      startAfterKey = lastKey;
    }
    const result: ListResult = { items, resourceVersion: String(readRevision) };
    if (more && lastKey !== undefined) {
      result.continueToken = encodeContinue({ revision: readRevision, startAfter: lastKey.slice(prefix.length) });
      if (remaining !== undefined && remaining > 0) result.remainingItemCount = remaining;
    }
    return result;
  }

  /** Persists a fully prepared new object. 409 AlreadyExists when the name is taken. */
  async create(obj: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const meta = obj.metadata!;
    const key = objectKey(this.rt, meta.namespace ?? '', meta.name!);
    if (opts.dryRun) {
      const { kv } = await this.kv.get(key);
      if (kv) throw errors.alreadyExists(this.qualified(meta.name));
      return withResourceVersion(obj, undefined);
    }
    const res = await this.storage(() => this.kv.create(key, encodeStored(obj, key, this.transformer)));
    if (!res.succeeded) throw errors.alreadyExists(this.qualified(meta.name));
    return withResourceVersion(obj, String(res.revision));
  }

  /**
   * Optimistic-concurrency update loop (like GuaranteedUpdate): reads the current object, asks `update` for the new
   * one, and writes it if nobody else wrote in between. When the new object pins a resourceVersion that is not
   * current, the update fails with 409. A deleting object whose last finalizer is removed is deleted.
   *
   * As kube's, the loop has no bound: it goes round again only when another write won in between, so every round
   * is somebody's progress, and a write that pins no resourceVersion never fails with a conflict.
   */
  async update(namespace: string, name: string, update: UpdateFn, opts: UpdateOptions = {}): Promise<{ object: KubeObject; deleted: boolean }> {
    const key = objectKey(this.rt, namespace, name);
    let { kv } = await this.kv.get(key);
    for (;;) {
      if (!kv && opts.uid && opts.missingMeetsPreconditions) throw this.uidPreconditionFailed(key, name, opts.uid, undefined);
      if (!kv) throw errors.notFound(this.qualified(name));
      const { object: current, json: currentJson, stale } = readStored(kv, this.transformer);
      if (opts.uid && opts.uid !== current.metadata!.uid) throw this.uidPreconditionFailed(key, name, opts.uid, current.metadata!.uid);
      const next = await update(structuredClone(current));
      const pinned = next.metadata?.resourceVersion;
      if (pinned && pinned !== current.metadata!.resourceVersion) throw errors.modified(this.qualified(name));
      const finished = Boolean(next.metadata?.deletionTimestamp) && !this.hasFinalizers(next);
      if (opts.dryRun) return { object: finished ? current : next, deleted: finished };
      if (finished) {
        const res = await this.storage(() => this.kv.delete(key, kv!.modRevision));
        if (res.succeeded) return { object: withResourceVersion(next, String(res.revision)), deleted: true };
        kv = res.current;
        continue;
      }
      const json = objectJson(next);
      // no-op: no new revision, unless the value was written with a key being retired (kube rewrites it then)
      if (!stale && Buffer.compare(json, currentJson) === 0) return { object: current, deleted: false };
      const bytes = this.transformer.toStorage(json, key);
      const res = await this.storage(() => this.kv.update(key, bytes, kv!.modRevision));
      if (res.succeeded) return { object: withResourceVersion(next, String(res.revision)), deleted: false };
      // Someone wrote in between: run `update` again on what is stored now. A resourceVersion the client pinned no
      // longer matches then (409 above); one a patch merely carried over from the object it read is re-read.
      kv = res.current;
    }
  }

  /**
   * Deletes an object. With finalizers it only gets a deletionTimestamp (graceful) and stays until they are removed.
   * `propagation` sets the garbage collector's `orphan` / `foregroundDeletion` finalizers as kube's registry.Store does,
   * also on an object already being deleted (a later delete may change its policy, or remove the last one).
   * Returns the object as last stored and whether it is gone.
   */
  async delete(namespace: string, name: string, preconditions: DeletePreconditions = {}, opts: DeleteOptions = {}): Promise<{ object: KubeObject; deleted: boolean }> {
    const key = objectKey(this.rt, namespace, name);
    let { kv } = await this.kv.get(key);
    for (;;) {
      if (!kv) throw errors.notFound(this.qualified(name));
      const current = decodeStored(kv, this.transformer);
      checkDeletePreconditions(this.rt, current, preconditions);
      const marked: KubeObject = structuredClone(current);
      const finalizers = finalizersForDeletion(marked.metadata!.finalizers ?? [], opts.propagation ?? {}, this.rt.garbageCollectionPolicy);
      if (finalizers?.length) marked.metadata!.finalizers = finalizers;
      else if (finalizers) delete marked.metadata!.finalizers;
      const alreadyDeleting = Boolean(marked.metadata!.deletionTimestamp);
      if (alreadyDeleting && !finalizers && this.hasFinalizers(marked)) return { object: current, deleted: false };
      // Graceful deletion (like rest.BeforeDelete): the strategy may add finalizers (a CRD's cleanup) first.
      if (!alreadyDeleting) this.rt.strategy?.prepareForDeletion?.(marked);
      if (this.hasFinalizers(marked)) {
        const m = marked.metadata!; // read after the strategy, which may have replaced it
        if (!alreadyDeleting) {
          m.deletionTimestamp = formatDateRFC3339(new Date());
          m.deletionGracePeriodSeconds = 0;
          if (m.generation) m.generation += 1; // as kube's markAsDeleting: only objects that track a generation
        }
        if (opts.dryRun) return { object: marked, deleted: false };
        const res = await this.storage(() => this.kv.update(key, encodeStored(marked, key, this.transformer), kv!.modRevision));
        if (res.succeeded) return { object: withResourceVersion(marked, String(res.revision)), deleted: false };
        kv = res.current;
        continue;
      }
      if (opts.dryRun) return { object: current, deleted: true };
      const res = await this.storage(() => this.kv.delete(key, kv!.modRevision));
      // As kube answers a delete: the last state, at the delete's revision (what watchers see in DELETED).
      if (res.succeeded) return { object: withResourceVersion(current, String(res.revision)), deleted: true };
      kv = res.current;
    }
  }

  async currentRevision(): Promise<number> {
    return this.kv.currentRevision();
  }

  private hasFinalizers(obj: KubeObject): boolean {
    return Boolean(obj.metadata?.finalizers?.length) || Boolean(this.rt.strategy?.extraFinalizers?.(obj).length);
  }

  /** kube's answer when an update's UID precondition fails: its storage error, as a 409 on the resource. */
  private uidPreconditionFailed(key: string, name: string, wanted: string, stored: string | undefined): Error {
    const storageError =
      `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, ` +
      `AdditionalErrorMsg: Precondition failed: UID in precondition: ${wanted}, UID in object meta: ${stored ?? ''}`;
    return errors.conflict(this.qualified(name), storageError);
  }

  /** Runs a storage call, translating its errors; `continuing`: the key a paged list continues after. */
  private async storage<T>(op: () => Promise<T>, continuing?: string): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof CompactedError && continuing !== undefined) throw continueExpired(continuing);
      throw this.translate(err);
    }
  }

  /** Storage errors become the Status kube-apiserver answers with. */
  private translate(err: unknown): Error {
    if (err instanceof CompactedError) {
      return errors.expired(`The resourceVersion for the provided list is too old.`);
    }
    if (err instanceof FutureRevisionError) return errors.tooLargeResourceVersion(err.requestedRevision, err.currentRevision);
    return err instanceof Error ? err : new Error(String(err));
  }
}

