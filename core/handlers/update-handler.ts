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

/**
 * PUT of one object (or its status). For a kind that allows create on update, a PUT of the main resource to a name
 * nothing is stored under creates the object (201) when the user may also create it.
 */
export async function handleUpdate(scope: ResourceScope, maxBodyBytes: number): Promise<void> {
  const { obj, dryRun } = await readUpdate(scope, maxBodyBytes);
  const orCreate = scope.rt.allowCreateOnUpdate && !scope.info.subresource ? obj : undefined;
  // A body that names a UID is an update of that object only, not of one recreated under its name (409).
  const authorizeCreate = orCreate && scope.authorizeVerb ? () => scope.authorizeVerb!('create') : undefined;
  const result = await scope.writer.update(writeRequestOf(scope, dryRun), () => desiredObject(scope, obj), { uid: obj.metadata?.uid, orCreate, ...(authorizeCreate ? { authorizeCreate } : {}) });
  return respondObject(scope, result.created ? 201 : 200, result.object);
}

/** Reads and decodes the body of a PUT and checks it against the URL. */
async function readUpdate(scope: ResourceScope, maxBodyBytes: number): Promise<{ obj: KubeObject; dryRun: boolean }> {
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  validateWriteOptions(scope.query, 'UpdateOptions');
  const body = await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, expectedTypeMeta(scope));
  const unknown = decodeTyped(body.object, scope, { codec: body.codec });
  const obj = checkTypeMeta(body.object, scope);
  checkNameAndNamespace(obj, scope);
  decodeForWrite(scope, obj, { unknown, duplicates: body.duplicates });
  return { obj, dryRun };
}

/**
 * The body as the update of a stored object: it must name a resourceVersion unless the kind allows unconditional
 * updates. Checked once the object is found, as kube's Store.Update does (a missing object is a 404 or a create).
 */
function desiredObject(scope: ResourceScope, obj: KubeObject): KubeObject {
  if (!scope.rt.allowUnconditionalUpdate && !obj.metadata?.resourceVersion) {
    throw errors.invalid(
      // kube names the resource here (widgets.example.com), not the kind.
      { group: scope.rt.group, resource: scope.rt.names.plural, kind: scope.rt.names.plural, name: scope.info.name },
      // kube prints the empty value as Go's %#v of a zero uint64.
      [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
    );
  }
  return structuredClone(obj);
}
