import type { ResourceScope } from '../request-scope.js';
import type { StorageScope } from './storage-scope.js';
import { errors } from '../../contracts/api-error.js';
import { storageGet, storageList, withTypeMeta } from './storage-reads.js';
import { storageWatch } from './storage-watch.js';
import { ephemeralCreate, subresourceWrite } from './subresource-writes.js';
import { RestStorageWriter } from '../../rest/rest-storage-writer.js';
import { handleCreate } from '../create-handler.js';
import { handleUpdate } from '../update-handler.js';
import { handlePatch } from '../patch-handler.js';
import { handleDelete } from '../delete-handler.js';
import { handleDeleteCollection } from '../delete-collection-handler.js';

/**
 * Serves a request to a resource with its own RestStorage (ResourceType.storage), or to one of its storage
 * subresources. The router has checked the verb against what the storage implements (else 405).
 *
 * A declared `status` subresource (a CRD's `subresources.status`) is the resource's own storage read and written
 * through the write handlers every resource has: the write stages keep the stored status on writes of the resource
 * and everything but the status on writes of `/status`, as kube's custom resource strategies do.
 */
export function routeToStorage(base: Omit<ResourceScope, 'writer'>, maxBodyBytes: number, bookmarkIntervalMs: number): Promise<void> {
  const { info, rt } = base;
  const ownStatus = info.subresource === 'status' && Boolean(base.versionDef.subresources?.status) && !rt.storageSubresources?.status;
  const storage = info.subresource && !ownStatus ? rt.storageSubresources?.[info.subresource] : rt.storage;
  if (!storage) throw errors.pathNotFound();
  const gone = new AbortController();
  base.ctx.res.once('close', () => gone.abort());
  const scope = { ...base, storage, signal: gone.signal, bookmarkIntervalMs } as StorageScope;
  if (info.subresource && !ownStatus) return info.verb === 'get' ? storageGet(scope) : subresourceWrite(scope, maxBodyBytes);
  if (rt.ephemeral && info.verb === 'create') return ephemeralCreate(scope, maxBodyBytes);
  // Writes of the resource go through the write handlers every resource has, onto the storage.
  scope.writer = new RestStorageWriter(rt, storage, gone.signal, (obj) => withTypeMeta(obj, scope));
  switch (info.verb) {
    case 'get':
      return storageGet(scope);
    case 'list':
      return storageList(scope);
    case 'watch':
      return storageWatch(scope);
    case 'create':
      return handleCreate(scope, maxBodyBytes);
    case 'update':
      return handleUpdate(scope, maxBodyBytes);
    case 'patch':
      return handlePatch(scope, maxBodyBytes);
    case 'delete':
      return handleDelete(scope, maxBodyBytes);
    case 'deletecollection':
      return handleDeleteCollection(scope, maxBodyBytes);
    default:
      throw errors.methodNotAllowed();
  }
}
