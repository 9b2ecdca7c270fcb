/**
 * The field manager the write handlers call (kube-apiserver's fieldmanager.FieldManager): server-side apply, and the
 * managedFields bookkeeping of creates, updates and non-apply patches.
 *
 * Both functions leave `live` and `applied` unchanged; their result may share unchanged subtrees with them, so
 * callers that go on mutating the result (defaulting) while still using `live` (as the old object) pass a copy.
 */
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { ApiError, errors } from '../contracts/api-error.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { conflictError, conflictList } from './conflicts.js';
import type { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { lastAppliedFields, migratesFromClientSideApply, updateLastApplied } from './last-applied.js';
import { isResetManagedFields, readManagedFields } from './managed-fields-entry.js';
import { decodeManagedFields, emptyManaged, encodeManagedFields, ManagedFieldsError, type Managed } from './managed-fields.js';
import { trackApply, trackUpdate, type PipelineContext, type TrackedApply } from './manager-pipeline.js';
import { toFieldSet } from '../../schemas/structured-merge/to-field-set.js';
import { objectModel } from '../../schemas/structured-merge/type-model.js';
import { TypedValueError } from '../../schemas/structured-merge/typed-errors.js';
import { resetFieldSet } from './untracked-fields.js';
import { Conflicts, type VersionView } from './updater.js';
import { isObject, valuesEqual, type JsonObject } from '../../schemas/structured-merge/json-value.js';

export interface FieldManagerContext {
  /** The version's model for the whole object (metadata's is replaced by ObjectMeta's). */
  model: MergeModel;
  manager: string;
  /** e.g. "example.com/v1" */
  apiVersion: string;
  /** e.g. "Widget": an apply must be of this apiVersion and kind (kube's "invalid object type"). */
  kind: string;
  subresource: '' | 'status' | 'scale' | 'finalize';
  /** RFC 3339, seconds. */
  now: string;
  /**
   * Top-level (or dotted) fields this endpoint resets and that are neither owned nor compared (kube's
   * ResetFieldsStrategy). Custom resources: the main resource with a status subresource ['status'], `/status`
   * ['spec'], `/scale` [] (kube resets nothing else: metadata changes through /status are tracked).
   */
  resetFields: readonly string[];
  /**
   * The other versions managedFields entries may be in (the other API of cohabiting resources): each with its
   * version's model (metadata's is added) and a converter into it.
   */
  otherVersion?: (apiVersion: string) => VersionView | undefined;
}

/** Server-side apply: `live` undefined means create. Returns the merged object with metadata.managedFields set. */
export function serverSideApply(live: KubeObject | undefined, applied: KubeObject, ctx: FieldManagerContext, force: boolean): KubeObject {
  const liveObj: JsonObject = live ?? { apiVersion: ctx.apiVersion, kind: ctx.kind };
  let managed: Managed;
  try {
    managed = decodeManagedFields(readManagedFields(liveObj.metadata) ?? [], true);
  } catch (e) {
    throw errors.internal(`failed to decode managed fields: ${(e as Error).message}`); // stored data, not the client's
  }
  if (applied.apiVersion !== ctx.apiVersion || applied.kind !== ctx.kind) throw errors.badRequest(`invalid object type: ${gvk(applied)}`);
  if (readManagedFields(applied.metadata) !== undefined) throw errors.badRequest('metadata.managedFields must be nil');

  const pctx = pipelineContext(ctx);
  const config = withoutManagedFields(applied as JsonObject);
  const current = withoutManagedFields(liveObj);
  let configSet: FieldSet;
  try {
    configSet = toFieldSet(config, pctx.model, true);
  } catch (e) {
    throw typedError('failed to create typed patch object', applied, e);
  }
  const run = (forced: boolean) => trackApply(current, config, configSet, managed, ctx.manager, forced, pctx);
  let result: TrackedApply;
  try {
    result = run(force);
  } catch (e) {
    if (!(e instanceof Conflicts)) throw typedError('failed to create typed live object', liveObj, e);
    let conflicts = conflictList(e.byManager);
    const allowed = migratesFromClientSideApply(ctx.manager) ? lastAppliedFields(current, pctx.model, ctx.apiVersion) : undefined;
    if (allowed) conflicts = conflicts.filter((c) => !allowed.has(c.path));
    if (!allowed || conflicts.length) throw conflictError(conflicts);
    result = run(true);
  }
  const object = updateLastApplied(result.object, config, ctx.manager);
  const metadata = isObject(object.metadata) ? { ...object.metadata } : {};
  return { ...object, metadata: placeManagedFields(metadata, encodeManagedFields(result.managed), liveObj.metadata) } as KubeObject;
}

/**
 * Create (`live` undefined), update and non-apply patch: sets `updated.metadata.managedFields` (in place) to what
 * the managers own after ctx.manager's write and returns `updated`. The body's managedFields: absent or undecodable →
 * the live ones; `[]` or `[{}]` → reset (none kept, and this write is not tracked); through a subresource → ignored.
 */
export function recordUpdate(live: KubeObject | undefined, updated: KubeObject, ctx: FieldManagerContext): KubeObject {
  const liveObj: JsonObject = live ?? {};
  const liveMeta = isObject(liveObj.metadata) ? liveObj.metadata : undefined;
  const fromLive = () => decodeOrEmpty(liveObj);
  let managed: Managed;
  const body = ctx.subresource ? undefined : readManagedFields(updated.metadata);
  if (isResetManagedFields(body)) managed = emptyManaged();
  else if (!body?.length) managed = fromLive();
  else if (valuesEqual(updated.metadata?.managedFields, liveMeta?.managedFields)) managed = fromLive();
  else {
    let fromBody: Managed | undefined;
    try {
      fromBody = decodeManagedFields(body, false);
    } catch {
      // kube falls back to the live object's
    }
    managed = fromBody?.sets.size ? fromBody : fromLive();
  }
  const stored = typeof liveMeta?.uid === 'string' && liveMeta.uid !== '';
  let entries: Record<string, unknown>[] | undefined;
  try {
    managed = trackUpdate(withoutManagedFields(liveObj), withoutManagedFields(updated as JsonObject), managed, ctx.manager, pipelineContext(ctx), stored);
    entries = encodeManagedFields(managed);
  } catch (e) {
    if (!(e instanceof TypedValueError)) throw e;
    entries = undefined; // kube's UpdateNoErrors drops managedFields rather than failing the write
  }
  updated.metadata = placeManagedFields((updated.metadata ?? {}) as JsonObject, entries, liveObj.metadata) as KubeObject['metadata'];
  return updated;
}

function pipelineContext(ctx: FieldManagerContext): PipelineContext {
  const { otherVersion } = ctx;
  return {
    model: objectModel(ctx.model),
    apiVersion: ctx.apiVersion,
    subresource: ctx.subresource,
    now: ctx.now,
    ignored: resetFieldSet(ctx.resetFields),
    otherVersion:
      otherVersion &&
      ((apiVersion) => {
        const view = otherVersion(apiVersion);
        return view && { model: objectModel(view.model), convert: view.convert };
      }),
  };
}

function decodeOrEmpty(obj: JsonObject): Managed {
  try {
    return decodeManagedFields(readManagedFields(obj.metadata) ?? [], true);
  } catch (e) {
    if (e instanceof ManagedFieldsError) return emptyManaged();
    throw e;
  }
}

function withoutManagedFields(obj: JsonObject): JsonObject {
  const metadata = obj.metadata;
  if (!isObject(metadata) || !('managedFields' in metadata)) return obj;
  const { managedFields: _, ...rest } = metadata;
  return { ...obj, metadata: rest };
}

/**
 * Sets (in place) or removes metadata.managedFields. A metadata without the key gets it where the stored object has
 * it, so that an unchanged object serializes as stored (the store detects no-op writes by their bytes).
 */
function placeManagedFields(metadata: JsonObject, entries: Record<string, unknown>[] | undefined, stored: unknown): JsonObject {
  if (!entries) {
    delete metadata.managedFields;
    return metadata;
  }
  const order = isObject(stored) ? Object.keys(stored) : [];
  const at = order.indexOf('managedFields');
  if ('managedFields' in metadata || at < 0) {
    metadata.managedFields = entries;
    return metadata;
  }
  let before = at - 1;
  while (before >= 0 && !(order[before] in metadata)) before--;
  const out: JsonObject = before < 0 ? { managedFields: entries } : {};
  for (const k in metadata) {
    out[k] = metadata[k];
    if (before >= 0 && k === order[before]) out.managedFields = entries;
  }
  return out;
}

/** schema.GroupVersionKind.String(): `example.com/v1, Kind=Widget`, `/v1, Kind=ConfigMap`. */
function gvk(obj: JsonObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const parts = apiVersion.split('/');
  const [group, version] = parts.length === 2 ? parts : parts.length === 1 ? ['', parts[0]] : ['', ''];
  return `${group}/${version}, Kind=${typeof obj.kind === 'string' ? obj.kind : ''}`;
}

/**
 * An applied configuration the schema cannot take (duplicate keys, missing key fields, undeclared fields). kube answers
 * these with a bare 500 (kubernetes#122480); they are the client's mistake, so kapi answers 400 with kube's text.
 */
function invalidConfiguration(message: string): ApiError {
  return errors.badRequest(message);
}

/** SMD validation errors of an object, in kube's words: `<what> (ns/name; gvk): <errors>`. */
function typedError(what: string, obj: JsonObject, e: unknown): ApiError {
  if (!(e instanceof TypedValueError)) throw e;
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  const name = typeof meta.name === 'string' ? meta.name : '';
  return invalidConfiguration(`${what} (${ns}/${name}; ${gvk(obj)}): ${e.message}`);
}
