import type { RequestScope, ResourceScope } from './request-scope.js';
import { errors } from '../contracts/api-error.js';
import { parseDryRun } from './query-options.js';
import { decodeForWrite } from './schema-stage.js';
import { readObjectBody } from './request-body.js';
import { decodeTyped } from './typed-decoding.js';
import { checkNameAndNamespace, checkTypeMeta, expectedTypeMeta } from './type-meta.js';
import { generateName, prepareForCreate } from '../store/object-meta-lifecycle.js';
import { respondObject } from './respond.js';
import { addWarnings } from './warnings.js';
import { ApiError } from '../contracts/api-error.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { trackUpdate } from './field-tracking.js';
import { validateWriteOptions } from './write-options.js';
import { writeAttributes } from './write-attributes.js';
import { toStorageVersion } from '../conversion/versioned-objects.js';

/** How often a name from generateName is redrawn when it collides (kube retries too). */
const generateNameAttempts = 8;

/** POST to a collection. */
export async function handleCreate(scope: RequestScope, maxBodyBytes: number): Promise<void> {
  const { obj, dryRun } = await readCreate(scope, maxBodyBytes);
  await admitCreate(scope, trackUpdate(scope, undefined, obj), dryRun);
}

/** Reads and decodes the body of a create, checks it against the URL and fills its system metadata. */
export async function readCreate(scope: ResourceScope, maxBodyBytes: number): Promise<{ obj: KubeObject; dryRun: boolean }> {
  const { info, rt } = scope;
  if (info.name || info.subresource || (rt.scope === 'Namespaced' && !info.namespace)) throw errors.methodNotAllowed();
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  validateWriteOptions(scope.query, 'CreateOptions');
  const body = await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, expectedTypeMeta(scope));
  decodeTyped(body.object, scope);
  const obj = checkTypeMeta(body.object, scope);
  checkNameAndNamespace(obj, scope);
  decodeForWrite(scope, obj, body.duplicates);
  prepareForCreate(obj, rt, scope.version, info.namespace);
  return { obj, dryRun };
}

/** Runs the write pipeline for a new object and stores it (201). */
export async function admitCreate(scope: RequestScope, obj: KubeObject, dryRun: boolean): Promise<void> {
  const admitted = await admitNew(scope, obj, dryRun);
  // Stored in the storage version: a conversion webhook that fails fails the create before anything is stored.
  const converted = toStorageVersion(scope.rt, admitted);
  const stored = converted instanceof Promise ? await converted : converted;
  return respondObject(scope, 201, await createWithGeneratedNameRetry(scope, stored, dryRun));
}

/** Runs the write pipeline for a new object; returns the admitted object. */
export async function admitNew(scope: ResourceScope, obj: KubeObject, dryRun: boolean): Promise<KubeObject> {
  const { info } = scope;
  const attrs = writeAttributes(scope, {
    operation: 'CREATE',
    object: obj,
    namespace: info.namespace,
    name: obj.metadata?.name ?? '',
    subresource: '',
    dryRun,
  });
  // Warnings reach the client with a refusal too, as kube's warning recorder sends them.
  await scope.pipeline.run(attrs).finally(() => addWarnings(scope.ctx, attrs.warnings));
  return attrs.object;
}

async function createWithGeneratedNameRetry(scope: RequestScope, obj: KubeObject, dryRun: boolean): Promise<KubeObject> {
  const meta = obj.metadata!;
  for (let attempt = 1; ; attempt++) {
    try {
      return await scope.store.create(obj, { dryRun });
    } catch (err) {
      const generated = meta.generateName && meta.name?.startsWith(meta.generateName.slice(0, 58));
      if (!(err instanceof ApiError) || err.reason !== 'AlreadyExists' || !generated || attempt >= generateNameAttempts) throw err;
      meta.name = generateName(meta.generateName!);
    }
  }
}
