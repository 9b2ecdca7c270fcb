import type { ResourceScope } from './request-scope.js';
import { errors } from '../contracts/api-error.js';
import { parseDryRun } from './query-options.js';
import { decodeForWrite } from './schema-stage.js';
import { readObjectBody } from './request-body.js';
import { decodeTyped } from './typed-decoding.js';
import { checkNameAndNamespace, checkTypeMeta, expectedTypeMeta } from './type-meta.js';
import { respondObject } from './respond.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { validateWriteOptions } from './write-options.js';
import { writeRequestOf } from './write-request-of.js';

/** POST to a collection. */
export async function handleCreate(scope: ResourceScope, maxBodyBytes: number): Promise<void> {
  const { obj, dryRun } = await readCreate(scope, maxBodyBytes);
  return respondObject(scope, 201, await scope.writer.create(writeRequestOf(scope, dryRun), obj));
}

/** Reads and decodes the body of a create and checks it against the URL. */
async function readCreate(scope: ResourceScope, maxBodyBytes: number): Promise<{ obj: KubeObject; dryRun: boolean }> {
  const { info, rt } = scope;
  if (info.name || info.subresource || (rt.scope === 'Namespaced' && !info.namespace)) throw errors.methodNotAllowed();
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  validateWriteOptions(scope.query, 'CreateOptions');
  const body = await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, expectedTypeMeta(scope));
  const unknown = decodeTyped(body.object, scope, { codec: body.codec });
  const obj = checkTypeMeta(body.object, scope);
  checkNameAndNamespace(obj, scope);
  decodeForWrite(scope, obj, { unknown, duplicates: body.duplicates });
  return { obj, dryRun };
}
