import type { WriteRequest } from './write-request.js';
import type { WriteAttributes } from './write-pipeline.js';
import type { KubeObject } from '../contracts/resource-type.js';

export interface WriteTarget {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  object: KubeObject;
  oldObject?: KubeObject;
  /** Fields of the operation's options beyond dryRun and fieldManager (e.g. a delete's propagationPolicy). */
  options?: Record<string, unknown>;
  /** The object's name when the request names none (a create). */
  name?: string;
}

const optionsKind = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

/**
 * The attributes of one write of the request's resource (kind and resource in the version the client addressed).
 *
 * Built field by field: on Node 20's V8, an object literal that adds properties after a spread (`{ ...target, rt, … }`)
 * takes a slow path, about 0.7 µs per added property — 6 µs on every write here.
 */
export function writeAttributes(req: WriteRequest, target: WriteTarget): WriteAttributes {
  const { rt, version } = req;
  const options: Record<string, unknown> = { kind: optionsKind[target.operation], apiVersion: 'meta.k8s.io/v1' };
  if (req.dryRun) options.dryRun = ['All'];
  if (req.fieldManagerOption && target.operation !== 'DELETE') options.fieldManager = req.fieldManagerOption;
  if (target.options) Object.assign(options, target.options);
  const attrs: WriteAttributes = {
    operation: target.operation,
    object: target.object,
    namespace: req.namespace,
    name: req.name || target.name || '',
    subresource: req.subresource,
    dryRun: req.dryRun,
    rt,
    version,
    kind: { group: rt.group, version, kind: rt.names.kind },
    resource: { group: rt.group, version, resource: rt.names.plural },
    userInfo: req.user,
    options,
    warnings: [],
  };
  if (target.oldObject) attrs.oldObject = target.oldObject;
  if (req.auditAnnotations) attrs.auditAnnotations = req.auditAnnotations;
  return attrs;
}
