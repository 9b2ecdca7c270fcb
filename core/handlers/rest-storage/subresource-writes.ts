import type { StorageScope } from './storage-scope.js';
import { restContext } from './storage-scope.js';
import type { KubeObject } from '../../contracts/resource-type.js';
import { apiVersionOf } from '../../contracts/resource-type.js';
import { readObjectBody } from '../request-body.js';
import { readPatch } from '../patch-handler.js';
import { parseDryRun } from '../query-options.js';
import { validateWriteOptions } from '../write-options.js';
import { writeAttributes } from '../../rest/write-attributes.js';
import { writeRequestOf } from '../write-request-of.js';
import { respondStored, withTypeMeta } from './storage-reads.js';
import { checkNameAndNamespace, requireTypeMeta } from '../type-meta.js';
import { decodeTyped } from '../typed-decoding.js';
import { errors } from '../../contracts/api-error.js';

/*
 * Writes to a storage's subresource, which has a kind of its own (kube's subresource storages, e.g. pods/eviction): the
 * resource's schema does not describe its objects, so kapi checks the body's kind and runs admission (mutating, then
 * validating) on it; validating the rest is the storage's.
 */

/** PUT, PATCH or POST of a storage's subresource. */
export async function subresourceWrite(scope: StorageScope, maxBodyBytes: number): Promise<void> {
  const kind = subresourceKind(scope);
  const expected = { apiVersion: apiVersionOf(kind.group, kind.version), kind: kind.kind };
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const ctx = restContext(scope, dryRun);
  if (scope.info.verb === 'patch') {
    const applyPatch = await readPatch(scope, maxBodyBytes); // 415 for apply patches (see storage-writes.ts)
    validateWriteOptions(scope.query, 'PatchOptions');
    const updated = await scope.storage.update!(ctx, scope.info.name, (old) => {
      const live = withTypeMeta(old, scope);
      return admit(scope, requireTypeMeta(applyPatch(structuredClone(live)), expected), live, dryRun);
    });
    return respondStored(scope, 200, updated);
  }
  const create = scope.info.verb === 'create';
  validateWriteOptions(scope.query, create ? 'CreateOptions' : 'UpdateOptions');
  const body = requireTypeMeta((await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, expected)).object, expected);
  if (create) {
    const created = await scope.storage.create!(ctx, await admit(scope, body, undefined, dryRun));
    return respondStored(scope, 201, created);
  }
  const updated = await scope.storage.update!(ctx, scope.info.name, (old) => admit(scope, structuredClone(body), withTypeMeta(old, scope), dryRun));
  return respondStored(scope, 200, updated);
}

/**
 * POST of a resource whose objects are never stored (ResourceType.ephemeral, e.g. an access review): like a
 * subresource's body, admitted as sent (a namespaced one gets the URL's namespace) and answered by the storage.
 */
export async function ephemeralCreate(scope: StorageScope, maxBodyBytes: number): Promise<void> {
  if (scope.info.name || (scope.rt.scope === 'Namespaced' && !scope.info.namespace)) throw errors.methodNotAllowed(); // as any create
  const kind = subresourceKind(scope);
  const expected = { apiVersion: apiVersionOf(kind.group, kind.version), kind: kind.kind };
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  validateWriteOptions(scope.query, 'CreateOptions');
  const body = requireTypeMeta((await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, expected)).object, expected);
  decodeTyped(body, scope); // the metadata; the storage decodes the rest
  body.metadata ??= {};
  checkNameAndNamespace(body, scope);
  const created = await scope.storage.create!(restContext(scope, dryRun), await admit(scope, body, undefined, dryRun));
  return respondStored(scope, 201, created);
}

/** The subresource's kind: its storage's, else the resource's. */
function subresourceKind(scope: StorageScope): { group: string; version: string; kind: string } {
  return scope.storage.kind ?? { group: scope.rt.group, version: scope.version, kind: scope.rt.names.kind };
}

/** Mutating then validating admission of a subresource write; returns the admitted object. */
async function admit(scope: StorageScope, object: KubeObject, oldObject: KubeObject | undefined, dryRun: boolean): Promise<KubeObject> {
  const req = writeRequestOf(scope, dryRun);
  const attrs = writeAttributes(req, { operation: oldObject ? 'UPDATE' : 'CREATE', object, ...(oldObject ? { oldObject } : {}) });
  attrs.kind = subresourceKind(scope);
  await req.pipeline
    .mutatingAdmission(attrs)
    .then(() => req.pipeline.validatingAdmission(attrs))
    .finally(() => req.warn(attrs.warnings));
  return attrs.object;
}
