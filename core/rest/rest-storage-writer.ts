import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import type { RestContext, RestStorage } from '../contracts/rest-storage.js';
import { ApiError, errors } from '../contracts/api-error.js';
import { checkDeletePreconditions } from '../store/delete-preconditions.js';
import type { ResourceWriter, WriterDeleteOptions, WriterSelection, WriterUpdateOptions } from './resource-writer.js';
import type { WriteRequest } from './write-request.js';
import { admitCreate, admitDelete, admitReview, admitUpdate, type FieldTracker } from './write-stages.js';

/**
 * The writes of a resource served from a user's own RestStorage: kapi runs the write stages and hands the storage
 * the admitted object (create) or the stages as the function to call on the object it holds (update, delete), as
 * k8s.io/apiserver hands a rest.Updater its admission.
 */
export class RestStorageWriter implements ResourceWriter {
  constructor(
    private readonly rt: ResourceType,
    private readonly storage: RestStorage,
    private readonly signal: AbortSignal,
    /** Fills in the apiVersion and kind a storage may leave out. */
    private readonly typed: (obj: KubeObject) => KubeObject,
  ) {}

  async exists(req: WriteRequest): Promise<boolean> {
    if (!this.storage.get) throw errors.methodNotAllowed();
    try {
      await this.storage.get(this.context(req), req.name);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return false;
      throw err;
    }
  }

  async select(req: WriteRequest, selection: WriterSelection): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    if (!this.storage.list) throw errors.methodNotAllowed();
    const items: KubeObject[] = [];
    let resourceVersion = '';
    // Every page: a storage that pages its lists answers with a continue token until the last one.
    for (let next = ''; ; ) {
      const page = await this.storage.list(this.context(req), { ...selection, continue: next, resourceVersion: '', allowWatchBookmarks: false });
      for (const o of page.items) if (page.selectorsApplied || selection.matches(o)) items.push(this.typed(o));
      resourceVersion ||= page.resourceVersion ?? '';
      if (!page.continue) return { items, resourceVersion };
      next = page.continue;
    }
  }

  async create(req: WriteRequest, obj: KubeObject, track?: FieldTracker): Promise<KubeObject> {
    if (!this.storage.create) throw errors.methodNotAllowed();
    const admitted = this.storage.reviews ? await admitReview(req, obj) : await admitCreate(req, obj, track);
    return this.typed(await this.storage.create(this.context(req), admitted));
  }

  async update(req: WriteRequest, desired: (live: KubeObject) => KubeObject | Promise<KubeObject>, opts: WriterUpdateOptions = {}): Promise<{ object: KubeObject; deleted: boolean }> {
    if (!this.storage.update) throw errors.methodNotAllowed();
    const updated = await this.storage.update(this.context(req), req.name, async (old) => {
      const live = this.typed(old);
      if (opts.uid && opts.uid !== live.metadata?.uid) {
        throw errors.conflict(this.qualified(req), `Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${live.metadata?.uid ?? ''}`);
      }
      const next = await admitUpdate(req, await desired(live), live, opts.track);
      // A write over a state the client did not read (another resourceVersion) is kube's 409.
      const pinned = next.metadata?.resourceVersion;
      if (pinned && pinned !== live.metadata?.resourceVersion) throw errors.modified(this.qualified(req));
      return next;
    });
    return { object: this.typed(updated), deleted: false };
  }

  async delete(req: WriteRequest, opts: WriterDeleteOptions): Promise<{ object: KubeObject; deleted: boolean }> {
    if (!this.storage.delete) throw errors.methodNotAllowed();
    const deleted = await this.storage.delete(this.context(req), req.name, async (old) => {
      const live = this.typed(old);
      checkDeletePreconditions(this.rt, live, opts.preconditions);
      await admitDelete(req, live, opts.admissionOptions);
    });
    return { object: this.typed(deleted), deleted: true };
  }

  private context(req: WriteRequest): RestContext {
    return { namespace: req.namespace, name: req.name, user: req.user, signal: this.signal, dryRun: req.dryRun };
  }

  private qualified(req: WriteRequest) {
    return { group: this.rt.group, resource: this.rt.names.plural, name: req.name };
  }
}
