import type { KubeObject } from '../contracts/resource-type.js';
import type { DeletePreconditions } from '../store/delete-preconditions.js';
import type { DeletePropagation } from '../store/deletion-propagation.js';
import type { WriteRequest } from './write-request.js';
import type { FieldTracker } from './write-stages.js';

export interface WriterUpdateOptions {
  /** The UID the stored object must have (a PUT body's metadata.uid): an object recreated under its name is a 409. */
  uid?: string;
  /** How managed fields are recorded: as an Update by the request's manager unless the write tracks them (apply). */
  track?: FieldTracker;
  /**
   * The object created instead when nothing is stored under the name (a PUT of a kind that allows create on update);
   * the result says `created` then.
   */
  orCreate?: KubeObject;
  /** Called before `orCreate` is created: the request must also be allowed to create (kube's withAuthorization). */
  authorizeCreate?: () => Promise<void>;
}

/** What an update did: the object as stored, whether it is gone (its last finalizer removed), whether it was created. */
export interface WriterUpdateResult {
  object: KubeObject;
  deleted: boolean;
  created?: boolean;
}

export interface WriterDeleteOptions {
  preconditions: DeletePreconditions;
  /** What delete admission sees in the DeleteOptions beyond dryRun (propagationPolicy, gracePeriodSeconds, …). */
  admissionOptions: Record<string, unknown>;
  /** What the garbage collector does with the object's dependents (the generic store's `orphan` / `foregroundDeletion`). */
  propagation?: DeletePropagation;
}

/** The objects a collection delete removes: those both selectors match (the texts go to storages that apply them). */
export interface WriterSelection {
  labelSelector: string;
  fieldSelector: string;
  matches(object: KubeObject): boolean;
}

/**
 * What the write handlers call, whoever keeps the objects: the generic store over the KV store, or a user's own
 * RestStorage (rest-storage-writer.ts). Both run the same write stages (write-stages.ts) on the objects in the request's
 * version; objects come back as the storage returns them (the handlers convert them for the response).
 */
export interface ResourceWriter {
  /** Whether the named object exists (apply creates it when not). */
  exists(req: WriteRequest): Promise<boolean>;
  /** The objects a collection delete would remove, and the list's resourceVersion. */
  select(req: WriteRequest, selection: WriterSelection): Promise<{ items: KubeObject[]; resourceVersion: string }>;
  /** Admits and stores a new object (already decoded); returns it as stored. */
  create(req: WriteRequest, obj: KubeObject, track?: FieldTracker): Promise<KubeObject>;
  /**
   * Updates the named object: `desired` turns the stored object (in the request's version; it is the write's
   * oldObject, so not to be changed) into the requested one — a PUT's body, a patched or applied object — which is
   * admitted and stored. `deleted`: the update removed the last finalizer of an object being deleted.
   */
  update(req: WriteRequest, desired: (live: KubeObject) => KubeObject | Promise<KubeObject>, opts?: WriterUpdateOptions): Promise<WriterUpdateResult>;
  /** Runs delete admission on the stored object, then deletes it (`deleted: false`: graceful deletion started). */
  delete(req: WriteRequest, opts: WriterDeleteOptions): Promise<{ object: KubeObject; deleted: boolean }>;
}
