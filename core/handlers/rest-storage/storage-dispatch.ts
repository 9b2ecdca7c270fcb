import type { ResourceScope } from '../request-scope.js';
import type { StorageScope } from './storage-scope.js';
import { errors } from '../../contracts/api-error.js';
import { storageGet, storageList } from './storage-reads.js';
import { storageWatch } from './storage-watch.js';
import { storageCreate, storageDelete, storagePatch, storageUpdate } from './storage-writes.js';
import { subresourceWrite } from './subresource-writes.js';

/**
 * Serves a request to a resource with its own RestStorage (ResourceType.storage), or to one of its storage
 * subresources. The router has checked the verb against what the storage implements (else 405).
 */
export function routeToStorage(base: ResourceScope, maxBodyBytes: number, bookmarkIntervalMs: number): Promise<void> {
  const { info, rt } = base;
  const storage = info.subresource ? rt.storageSubresources?.[info.subresource] : rt.storage;
  if (!storage) throw errors.pathNotFound();
  const gone = new AbortController();
  base.ctx.res.once('close', () => gone.abort());
  const scope: StorageScope = { ...base, storage, signal: gone.signal, bookmarkIntervalMs };
  if (info.subresource) return info.verb === 'get' ? storageGet(scope) : subresourceWrite(scope, maxBodyBytes);
  switch (info.verb) {
    case 'get':
      return storageGet(scope);
    case 'list':
      return storageList(scope);
    case 'watch':
      return storageWatch(scope);
    case 'create':
      return storageCreate(scope, maxBodyBytes);
    case 'update':
      return storageUpdate(scope, maxBodyBytes);
    case 'patch':
      return storagePatch(scope, maxBodyBytes);
    case 'delete':
      return storageDelete(scope, maxBodyBytes);
    default:
      throw errors.methodNotAllowed();
  }
}
