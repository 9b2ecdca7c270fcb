import type { RequestScope } from './request-scope.js';
import type { KubeObject, ScaleSubresource } from '../registry/resource-type.js';
import { errors, fieldErrors } from '../errors/api-error.js';
import { parseDryRun } from './query-options.js';
import { readObjectBody } from './request-body.js';
import { encodeBody, toVersion } from './respond.js';
import { admitUpdate, inRequestVersion } from './update-handler.js';
import { readPatch } from './patch-handler.js';

/** An autoscaling/v1 Scale, the view of a custom resource served at `/scale`. */
interface Scale extends KubeObject {
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

/** `.spec.replicas` → ['spec', 'replicas'] (CRD scale paths are simple dotted JSON paths). */
function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function read(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const s of segments(path)) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[s] : undefined;
  return v;
}

function write(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = segments(path);
  let o = obj;
  for (const s of parts.slice(0, -1)) {
    if (o[s] === null || typeof o[s] !== 'object') o[s] = {};
    o = o[s] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]] = value;
}

function scaleSpec(scope: RequestScope): ScaleSubresource {
  const scale = scope.versionDef.subresources?.scale;
  if (!scale) throw errors.pathNotFound();
  return scale;
}

/** The Scale of an object, as kube's CRD scale subresource builds it. */
function toScale(obj: KubeObject, paths: ScaleSubresource): Scale {
  const meta = obj.metadata!;
  const specReplicas = read(obj, paths.specReplicasPath);
  const statusReplicas = read(obj, paths.statusReplicasPath);
  const selector = paths.labelSelectorPath ? read(obj, paths.labelSelectorPath) : undefined;
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
    spec: typeof specReplicas === 'number' ? { replicas: specReplicas } : {},
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(typeof selector === 'string' ? { selector } : {}) },
  };
}

/** Writes a Scale's replicas into the object, after kube's Scale validation. */
function applyScale(scope: RequestScope, obj: KubeObject, scale: Record<string, unknown>, paths: ScaleSubresource): KubeObject {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    const cause = typeof replicas === 'number' ? fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0') : fieldErrors.required('spec.replicas');
    throw errors.invalid({ group: 'autoscaling', resource: 'scales', kind: 'Scale', name: scope.info.name }, [cause]);
  }
  write(obj, paths.specReplicasPath, replicas);
  // A Scale that names a resourceVersion is a conditional update; without one it updates whatever is stored.
  const rv = (scale.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
  if (rv) obj.metadata = { ...obj.metadata, resourceVersion: rv };
  return obj;
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
  const update =
    scope.info.verb === 'patch'
      ? await readPatch(scope, maxBodyBytes).then((patch) => (current: KubeObject) => patch(toScale(current, paths)))
      : await readObjectBody(scope.ctx, maxBodyBytes, scope.codecs, { apiVersion: 'autoscaling/v1', kind: 'Scale' }).then((body) => () => body.object);
  const result = await scope.store.update(
    namespace,
    name,
    inRequestVersion(scope, async (live) => {
      const obj = structuredClone(live);
      const desired = applyScale(scope, obj, update(obj), paths);
      return admitUpdate(scope, desired, live, dryRun);
    }),
    { dryRun },
  );
  encodeBody(scope.ctx, scope.negotiated, 200, toScale(await toVersion(result.object, scope), paths));
}
