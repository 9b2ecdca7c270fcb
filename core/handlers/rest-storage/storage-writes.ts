import type { StorageScope } from './storage-scope.js';
import { restContext } from './storage-scope.js';
import type { KubeObject } from '../../contracts/resource-type.js';
import { errors } from '../../contracts/api-error.js';
import { readCreate } from '../create-handler.js';
import { readUpdate } from '../update-handler.js';
import { patchedObject, readPatch } from '../patch-handler.js';
import { deleteAdmissionOptions, readDeleteOptions } from '../delete-options.js';
import { parseDryRun } from '../query-options.js';
import { validateWriteOptions } from '../write-options.js';
import { writeRequestOf } from '../write-request-of.js';
import { admitCreate, admitDelete, admitUpdate } from '../../rest/write-stages.js';
import { respondStored, withTypeMeta } from './storage-reads.js';
import { checkDeletePreconditions } from '../../store/delete-preconditions.js';

/*
 * Writes to a storage of the resource's own kind, through the generic store's write stages (core/rest/write-stages.ts):
 * decode, system metadata, managed fields, mutating admission, schema validation, validating admission; the storage
 * stores (or, on dry-run, does not) what was admitted.
 */

/** POST to the collection: the storage gets the admitted object. */
export async function storageCreate(scope: StorageScope, maxBodyBytes: number): Promise<void> {
  const { obj, dryRun } = await readCreate(scope, maxBodyBytes);
  const admitted = await admitCreate(writeRequestOf(scope, dryRun), obj);
  const created = await scope.storage.create!(restContext(scope, dryRun), admitted);
  return respondStored(scope, 201, created);
}

/** PUT: the storage calls back with the stored object; the body replaces it once admitted. */
export async function storageUpdate(scope: StorageScope, maxBodyBytes: number): Promise<void> {
  const { obj, dryRun } = await readUpdate(scope, maxBodyBytes);
  const updated = await scope.storage.update!(restContext(scope, dryRun), scope.info.name, async (old) => {
    const live = withTypeMeta(old, scope);
    checkPreconditions(scope, obj, live);
    return admitUpdate(writeRequestOf(scope, dryRun), structuredClone(obj), live);
  });
  return respondStored(scope, 200, updated);
}

/** PATCH (JSON, merge or strategic merge patch): applied to the object the storage passes, then admitted. */
export async function storagePatch(scope: StorageScope, maxBodyBytes: number): Promise<void> {
  // Server-side apply is the generic store's: its patch types are 415 here (readPatch), before options are checked.
  const applyPatch = await readPatch(scope, maxBodyBytes);
  validateWriteOptions(scope.query, 'PatchOptions');
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const updated = await scope.storage.update!(restContext(scope, dryRun), scope.info.name, (old) => {
    const live = withTypeMeta(old, scope);
    return admitUpdate(writeRequestOf(scope, dryRun), patchedObject(scope, applyPatch, live), live);
  });
  return respondStored(scope, 200, updated);
}

/** DELETE: delete admission runs on the object the storage passes; the storage returns what it deleted. */
export async function storageDelete(scope: StorageScope, maxBodyBytes: number): Promise<void> {
  const opts = await readDeleteOptions(scope.ctx, scope.query, maxBodyBytes, scope.codecs);
  const { name } = scope.info;
  const deleted = await scope.storage.delete!(restContext(scope, opts.dryRun), name, async (old) => {
    const live = withTypeMeta(old, scope);
    checkDeletePreconditions(scope.rt, live, opts.preconditions);
    await admitDelete(writeRequestOf(scope, opts.dryRun), live, deleteAdmissionOptions(opts));
  });
  return respondStored(scope, 200, deleted);
}

/**
 * A PUT naming another resourceVersion (or UID) than the stored object's is kube's 409: the client wrote over a state
 * it did not read.
 */
function checkPreconditions(scope: StorageScope, desired: KubeObject, live: KubeObject): void {
  const q = { group: scope.rt.group, resource: scope.rt.names.plural, name: scope.info.name };
  const uid = desired.metadata?.uid;
  if (uid && uid !== live.metadata?.uid) {
    throw errors.conflict(q, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${live.metadata?.uid ?? ''}`);
  }
  const rv = desired.metadata?.resourceVersion;
  if (rv && rv !== live.metadata?.resourceVersion) throw errors.modified(q);
}
