import type { KubeObject } from '../contracts/resource-type.js';
import type { WriteRequest } from './write-request.js';
import { writeAttributes } from './write-attributes.js';
import { trackUpdate } from './field-tracking.js';
import { prepareForCreate, prepareForUpdate } from '../store/object-meta-lifecycle.js';
import { keepTimesOfNoopWrite } from '../ssa/noop-timestamps.js';
import type { WriteClaim } from './write-claim.js';

/*
 * The one order every write goes through before storage, for the generic store and for a user's own RestStorage
 * (which is handed these as the functions to call, as k8s.io/apiserver hands a rest.Creater its createValidation):
 *
 *   system metadata (strategy prepare) → field manager → mutating admission → (generic store: the strategy's
 *   beginWrite claim) → schema + CEL validation + strategy validate → validating admission
 *
 * The field manager runs before admission, as in kube-apiserver: what mutating admission adds is not owned by the
 * writer (kube issue 87672); DESIGN.md's order puts it after — see the closing note of issue 19.
 */

/** Sets metadata.managedFields of the object about to be stored (`live`: the stored object in the request's version). */
export type FieldTracker = (next: KubeObject, live: KubeObject | undefined) => KubeObject;

/** Records the write as an Update by the request's manager. */
const trackAsUpdate = (req: WriteRequest): FieldTracker => (next, live) => trackUpdate(req, live, next);

/**
 * A new object: system metadata, managed fields, admission and validation; returns the admitted object. `claim`: the
 * generic store's, taking from the type's shared pools what the object needs.
 */
export async function admitCreate(req: WriteRequest, obj: KubeObject, track: FieldTracker = trackAsUpdate(req), claim?: WriteClaim): Promise<KubeObject> {
  prepareForCreate(obj, req.rt, req.version, req.namespace);
  const attrs = writeAttributes(req, { operation: 'CREATE', object: track(obj, undefined), name: obj.metadata?.name ?? '' });
  await req.pipeline.run(attrs, claim).finally(() => req.warn(attrs.warnings));
  return attrs.object;
}

/**
 * An update of `live` (the stored object in the request's version) into `desired`: system metadata carried over,
 * managed fields, admission and validation; returns the object to store.
 */
export async function admitUpdate(req: WriteRequest, desired: KubeObject, live: KubeObject, track: FieldTracker = trackAsUpdate(req), claim?: WriteClaim): Promise<KubeObject> {
  // An unconditional update (allowed for some built-ins) is an update of whatever is stored now.
  if (req.rt.allowUnconditionalUpdate && desired.metadata && !desired.metadata.resourceVersion) {
    desired.metadata.resourceVersion = live.metadata?.resourceVersion;
  }
  const next = track(prepareForUpdate(desired, live, req.rt, req.version, req.subresource), live);
  const attrs = writeAttributes(req, { operation: 'UPDATE', object: next, oldObject: live });
  await req.pipeline.run(attrs, claim).finally(() => req.warn(attrs.warnings));
  // A write that changes nothing but managedFields times keeps the stored times: storage sees a no-op.
  return keepTimesOfNoopWrite(attrs.object, live);
}

/** A review's create (see RestStorage.reviews): both admission phases, nothing else; returns the admitted object. */
export async function admitReview(req: WriteRequest, obj: KubeObject): Promise<KubeObject> {
  const attrs = writeAttributes(req, { operation: 'CREATE', object: obj, name: obj.metadata?.name ?? '' });
  await req.pipeline
    .mutatingAdmission(attrs)
    .then(() => req.pipeline.validatingAdmission(attrs))
    .finally(() => req.warn(attrs.warnings));
  return attrs.object;
}

/** Both admission phases of a delete of `current` (the stored object in the request's version). */
export async function admitDelete(req: WriteRequest, current: KubeObject, options: Record<string, unknown>): Promise<void> {
  const attrs = writeAttributes(req, { operation: 'DELETE', object: current, oldObject: current, options });
  await req.pipeline.admitDelete(attrs).finally(() => req.warn(attrs.warnings));
}

/**
 * A subresource whose admission sees objects of another kind than the one stored (kube's Scale): admission runs on
 * views of the old and new object, validation on the object stored.
 */
export interface AdmissionView {
  kind: { group: string; version: string; kind: string };
  /** The view of an object; `old`: of the object before the write (kube fills some fields differently then). */
  of(obj: KubeObject, old: boolean): KubeObject;
  /** The object to store: `live` with the admitted view written into it. */
  apply(live: KubeObject, admitted: KubeObject): KubeObject;
}

/**
 * An update through an admission view, as kube's ScaleREST runs it: mutating admission on the views, the result
 * written into the object, which is validated as a whole, then validating admission on the views again.
 */
export async function admitViewUpdate(req: WriteRequest, view: AdmissionView, requested: (oldView: KubeObject) => KubeObject, live: KubeObject): Promise<KubeObject> {
  const oldView = view.of(live, true);
  const viewAttrs = writeAttributes(req, { operation: 'UPDATE', object: requested(structuredClone(oldView)), oldObject: oldView });
  viewAttrs.kind = view.kind;
  try {
    await req.pipeline.mutatingAdmission(viewAttrs);
    const next = trackUpdate(req, live, prepareForUpdate(view.apply(live, viewAttrs.object), live, req.rt, req.version, req.subresource));
    const attrs = writeAttributes(req, { operation: 'UPDATE', object: next, oldObject: live });
    attrs.warnings = viewAttrs.warnings;
    await req.pipeline.validate(attrs);
    viewAttrs.object = view.of(attrs.object, false);
    viewAttrs.oldObject = view.of(live, false);
    await req.pipeline.validatingAdmission(viewAttrs);
    return keepTimesOfNoopWrite(attrs.object, live);
  } finally {
    req.warn(viewAttrs.warnings);
  }
}
