import type { RequestScope } from './request-scope.js';
import type { KubeObject, ScaleSubresource } from '../contracts/resource-type.js';
import { errors } from '../contracts/api-error.js';
import { nestedInt64, nestedString, setNested } from '../registry/scale-paths.js';
import { parseDryRun } from './query-options.js';
import { validateWriteOptions } from './write-options.js';
import { readObjectBody } from './request-body.js';
import { encodeBody, toVersion } from './respond.js';
import { readPatch } from './patch-handler.js';
import { writeRequestOf } from './write-request-of.js';
import type { AdmissionView } from '../rest/write-stages.js';

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
 * A /scale write's admission sees autoscaling/v1 Scales (kube's ScaleREST); the replicas they ask for are written
 * into the custom resource, which is validated as a whole (its schema, CEL rules and scale fields) before it is stored.
 */
function scaleView(paths: ScaleSubresource): AdmissionView {
  return {
    kind: scaleKind,
    of: (obj, old) => toScale(obj, paths, old ? unsetReplicas : 0),
    apply(live, admitted) {
      const desired = structuredClone(live);
      setNested(desired, paths.specReplicasPath, requestedReplicas(admitted, paths));
      // A Scale that names a resourceVersion is a conditional update; without one it updates whatever is stored.
      const rv = admitted.metadata?.resourceVersion;
      if (rv) desired.metadata!.resourceVersion = rv;
      return desired;
    },
  };
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
  validateWriteOptions(scope.query, scope.info.verb === 'patch' ? 'PatchOptions' : 'UpdateOptions');
  const dryRun = parseDryRun(scope.query.getAll('dryRun'));
  const requested: (old: KubeObject) => KubeObject =
    scope.info.verb === 'patch'
      ? await readPatch(scope, maxBodyBytes).then((patch) => (old: KubeObject) => patch(old))
      : await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, { apiVersion: 'autoscaling/v1', kind: 'Scale' }).then((body) => () => structuredClone(body.object));
  const result = await scope.writer.updateThroughView(writeRequestOf(scope, dryRun), scaleView(paths), requested);
  encodeBody(scope.ctx, scope.negotiated, 200, toScale(await toVersion(result.object, scope), paths));
}
