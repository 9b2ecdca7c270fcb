import type { RequestScope } from './request-scope.js';
import type { KubeObject, ScaleSubresource } from '../contracts/resource-type.js';
import { errors } from '../contracts/api-error.js';
import { nestedInt64, nestedString, setNested } from '../registry/scale-paths.js';
import { parseDryRun } from './query-options.js';
import { readObjectBody } from './request-body.js';
import { encodeBody, toVersion } from './respond.js';
import { inRequestVersion } from './update-handler.js';
import { readPatch } from './patch-handler.js';
import { writeAttributes } from './write-attributes.js';
import { trackUpdate } from './field-tracking.js';
import { addWarnings } from './warnings.js';
import { prepareForUpdate } from '../store/object-meta-lifecycle.js';
import { keepTimesOfNoopWrite } from '../ssa/noop-timestamps.js';

/** An autoscaling/v1 Scale, the view of a custom resource served at `/scale`. */
interface Scale extends KubeObject {
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

const scaleKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/** What kube puts in the old Scale when the object has no spec replicas: a Scale left with it cannot be written. */
const unsetReplicas = -2147483648;

function scaleSpec(scope: RequestScope): ScaleSubresource {
  const scale = scope.versionDef.subresources?.scale;
  if (!scale) throw errors.pathNotFound();
  return scale;
}

/** An integer the object holds at `path`, or undefined (kube's scale reads any other value as unset). */
function replicasAt(obj: KubeObject, path: string): number | undefined {
  const { value } = nestedInt64(obj, path);
  return typeof value === 'number' ? value : undefined;
}

/** The Scale of an object, as kube's CRD scale subresource builds it (Go's omitempty drops 0 spec replicas). */
function toScale(obj: KubeObject, paths: ScaleSubresource, absentReplicas = 0): Scale {
  const meta = obj.metadata!;
  const specReplicas = replicasAt(obj, paths.specReplicasPath) ?? absentReplicas;
  const selector = paths.labelSelectorPath ? nestedString(obj, paths.labelSelectorPath).value : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: specReplicas !== 0 ? { replicas: specReplicas } : {},
    status: { replicas: replicasAt(obj, paths.statusReplicasPath) ?? 0, ...(typeof selector === 'string' && selector ? { selector } : {}) },
  };
}

/** The replicas of a written Scale, decoded as kube decodes an autoscaling/v1 Scale (an int32; absent is 0). */
function requestedReplicas(scale: KubeObject, paths: ScaleSubresource): number {
  const cannotDecode = (detail: string) => errors.badRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${detail}`);
  const spec: unknown = scale.spec;
  if (spec === undefined || spec === null) return 0;
  if (typeof spec !== 'object' || Array.isArray(spec)) throw cannotDecode(`${jsonType(spec)} into Go struct field Scale.spec of type v1.ScaleSpec`);
  const replicas = (spec as { replicas?: unknown }).replicas;
  if (replicas === undefined || replicas === null) return 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < -(2 ** 31) || replicas >= 2 ** 31) {
    const value = typeof replicas === 'number' ? `number ${replicas}` : jsonType(replicas);
    throw cannotDecode(`${value} into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  if (replicas === unsetReplicas) throw errors.badRequest(`the spec replicas field ${JSON.stringify(paths.specReplicasPath)} cannot be empty`);
  return replicas;
}

function jsonType(v: unknown): string {
  return typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : 'object';
}

/**
 * An update through /scale, as kube's ScaleREST runs it: admission (mutating, then validating) sees autoscaling/v1
 * Scales; the replicas are written into the custom resource, which is validated as a whole (its schema, CEL rules
 * and scale fields) before it is stored.
 */
async function admitScaleUpdate(scope: RequestScope, live: KubeObject, requested: (old: Scale) => KubeObject, paths: ScaleSubresource, dryRun: boolean) {
  const { namespace, name } = scope.info;
  const oldScale = toScale(live, paths, unsetReplicas);
  const scaleAttrs = writeAttributes(scope, { operation: 'UPDATE', object: requested(structuredClone(oldScale)), oldObject: oldScale, namespace, name, subresource: 'scale', dryRun });
  scaleAttrs.kind = scaleKind;
  try {
    await scope.pipeline.mutatingAdmission(scaleAttrs);
    const desired = structuredClone(live);
    setNested(desired, paths.specReplicasPath, requestedReplicas(scaleAttrs.object, paths));
    // A Scale that names a resourceVersion is a conditional update; without one it updates whatever is stored.
    const rv = scaleAttrs.object.metadata?.resourceVersion;
    if (rv) desired.metadata!.resourceVersion = rv;
    const next = trackUpdate(scope, live, prepareForUpdate(desired, live, scope.rt, scope.version, 'scale'));
    const attrs = writeAttributes(scope, { operation: 'UPDATE', object: next, oldObject: live, namespace, name, subresource: 'scale', dryRun });
    attrs.warnings = scaleAttrs.warnings;
    await scope.pipeline.validate(attrs);
    scaleAttrs.object = toScale(attrs.object, paths);
    scaleAttrs.oldObject = toScale(live, paths);
    await scope.pipeline.validatingAdmission(scaleAttrs);
    return keepTimesOfNoopWrite(attrs.object, live);
  } finally {
    // Warnings reach the client with a refusal too, as kube's warning recorder sends them.
    addWarnings(scope.ctx, scaleAttrs.warnings);
  }
}

/** GET, PUT and PATCH of `/scale` for custom resources that declare a scale subresource. */
export async function handleScale(scope: RequestScope, maxBodyBytes: number): Promise<void> {
  const paths = scaleSpec(scope);
  const { namespace, name } = scope.info;
  if (scope.info.verb === 'get') {
    const obj = await toVersion(await scope.store.get(namespace, name), scope);
    encodeBody(scope.ctx, scope.negotiated, 200, toScale(obj, paths));
    return;
  }
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const requested: (old: Scale) => KubeObject =
    scope.info.verb === 'patch'
      ? await readPatch(scope, maxBodyBytes).then((patch) => (old: Scale) => patch(old))
      : await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, { apiVersion: 'autoscaling/v1', kind: 'Scale' }).then((body) => () => structuredClone(body.object));
  const result = await scope.store.update(
    namespace,
    name,
    inRequestVersion(scope, (live) => admitScaleUpdate(scope, live, requested, paths, dryRun)),
    { dryRun },
  );
  encodeBody(scope.ctx, scope.negotiated, 200, toScale(await toVersion(result.object, scope), paths));
}
