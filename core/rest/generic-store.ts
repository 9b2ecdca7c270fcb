import type { KubeObject } from '../contracts/resource-type.js';
import { ApiError } from '../contracts/api-error.js';
import type { ResourceStore, UpdateOptions } from '../store/resource-store.js';
import type { ResourceWriter, WriterDeleteOptions, WriterSelection, WriterUpdateOptions, WriterUpdateResult } from './resource-writer.js';
import { generateName } from '../store/object-meta-lifecycle.js';
import { toRequestVersion, toStorageVersion } from '../conversion/versioned-objects.js';
import type { WriteRequest } from './write-request.js';
import { WriteClaim } from './write-claim.js';
import { admitCreate, admitDelete, admitUpdate, admitViewUpdate, type AdmissionView, type FieldTracker } from './write-stages.js';

/** How often a name from generateName is redrawn when it collides (kube retries too). */
const generateNameAttempts = 8;

/**
 * kapi's registry.Store: every write of a resource kept in the KV store goes through here, from an HTTP request or a
 * controller. It runs the write stages (write-stages.ts) on objects in the request's version and stores them in the
 * storage version; updates run inside the store's compare-and-swap loop, so the request's change (a body, a patch, an
 * apply) is re-applied to the freshest object when another write won in between.
 */
export class GenericStore implements ResourceWriter {
  constructor(readonly storage: ResourceStore) {}

  async exists(req: WriteRequest): Promise<boolean> {
    return (await this.storage.find(req.namespace, req.name)) !== undefined;
  }

  async select(req: WriteRequest, selection: WriterSelection): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    return this.storage.list(req.namespace, { filter: (o) => selection.matches(o) });
  }

  create(req: WriteRequest, obj: KubeObject, track?: FieldTracker): Promise<KubeObject> {
    const claim = new WriteClaim();
    // read before the write stages, which drop it (prepareForCreate): a mutating webhook's change to it goes unseen
    const pinned = pinsResourceVersion(obj);
    const created = async () => {
      const admitted = await admitCreate(req, obj, track, claim);
      // kube's storage refuses it, after admission and validation, with an error that is no Status: a bare 500
      if (pinned && !req.dryRun) throw new ApiError(500, '', 'resourceVersion should not be set on objects to be created');
      // Stored in the storage version: a conversion webhook that fails fails the create before anything is stored.
      const converted = toStorageVersion(req.rt, admitted);
      return this.createWithGeneratedNameRetry(converted instanceof Promise ? await converted : converted, req.dryRun);
    };
    return claim.around(created(), (stored) => stored);
  }

  /**
   * Updates the stored object; with `orCreate`, creates that one when nothing is stored under the name, as kube's
   * Store.Update does for strategies that AllowCreateOnUpdate (the create's admission, validation and claims).
   */
  async update(req: WriteRequest, desired: (live: KubeObject) => KubeObject | Promise<KubeObject>, opts: WriterUpdateOptions = {}): Promise<WriterUpdateResult> {
    const { orCreate } = opts;
    if (!orCreate) return this.updateStored(req, desired, opts);
    for (;;) {
      try {
        return await this.updateStored(req, desired, opts);
      } catch (err) {
        if (!(err instanceof ApiError && err.reason === 'NotFound') || (await this.exists(req))) throw err;
      }
      await opts.authorizeCreate?.();
      try {
        // kube's update creates through its compare-and-swap, which stores any resourceVersion the object carries as unset
        const fresh = structuredClone(orCreate);
        delete fresh.metadata?.resourceVersion;
        return { object: await this.create(req, fresh), deleted: false, created: true };
      } catch (err) {
        // Another write created it in between: this one updates it, as kube's update loop would.
        if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
      }
    }
  }

  private updateStored(req: WriteRequest, desired: (live: KubeObject) => KubeObject | Promise<KubeObject>, opts: WriterUpdateOptions): Promise<WriterUpdateResult> {
    const claim = new WriteClaim();
    const updated = this.guaranteedUpdate(req, async (live) => admitUpdate(req, await desired(live), live, opts.track, claim), {
      uid: opts.uid,
      // A body naming a UID is about that object only: on a missing one, kube's UID precondition fails (409).
      missingMeetsPreconditions: opts.orCreate !== undefined,
    });
    return claim.around(updated, (result) => result.object);
  }

  /** An update through a subresource whose admission sees views of another kind (a Scale). */
  updateThroughView(req: WriteRequest, view: AdmissionView, requested: (oldView: KubeObject) => KubeObject): Promise<{ object: KubeObject; deleted: boolean }> {
    return this.guaranteedUpdate(req, (live) => admitViewUpdate(req, view, requested, live));
  }

  async delete(req: WriteRequest, opts: WriterDeleteOptions): Promise<{ object: KubeObject; deleted: boolean }> {
    // kube reads the object into the request's version before deleting: a failing conversion fails the delete.
    const current = await this.read(req);
    await admitDelete(req, current, opts.admissionOptions);
    return this.storage.delete(req.namespace, req.name, opts.preconditions, { dryRun: req.dryRun, propagation: opts.propagation });
  }

  /** The stored object in the request's version (404 when there is none). */
  async read(req: Pick<WriteRequest, 'rt' | 'version' | 'namespace' | 'name'>): Promise<KubeObject> {
    const converted = toRequestVersion(req.rt, req.version, await this.storage.get(req.namespace, req.name));
    return converted instanceof Promise ? await converted : converted;
  }

  /** The store's update loop over objects in the request's version; conversions that fail fail the write. */
  private guaranteedUpdate(req: WriteRequest, update: (live: KubeObject) => Promise<KubeObject>, preconditions: Pick<UpdateOptions, 'uid' | 'missingMeetsPreconditions'> = {}) {
    return this.storage.update(
      req.namespace,
      req.name,
      async (current) => {
        const converted = toRequestVersion(req.rt, req.version, current);
        const next = await update(converted instanceof Promise ? await converted : converted);
        return toStorageVersion(req.rt, next);
      },
      { dryRun: req.dryRun, ...preconditions },
    );
  }

  private async createWithGeneratedNameRetry(obj: KubeObject, dryRun: boolean): Promise<KubeObject> {
    const meta = obj.metadata!;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.storage.create(obj, { dryRun });
      } catch (err) {
        const generated = meta.generateName && meta.name?.startsWith(meta.generateName.slice(0, 58));
        if (!(err instanceof ApiError) || err.reason !== 'AlreadyExists' || !generated || attempt >= generateNameAttempts) throw err;
        meta.name = generateName(meta.generateName!);
      }
    }
  }
}

/** Whether an object to be created carries a resourceVersion kube's storage reads as one (a uint64 other than 0). */
function pinsResourceVersion(obj: KubeObject): boolean {
  const rv = obj.metadata?.resourceVersion;
  if (typeof rv !== 'string' || !/^\d{1,20}$/.test(rv)) return false;
  const value = BigInt(rv);
  return value > 0n && value < 2n ** 64n;
}
