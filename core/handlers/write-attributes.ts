import type { RequestScope } from './request-scope.js';
import type { WriteAttributes } from './write-pipeline.js';
import type { KubeObject } from '../registry/resource-type.js';

export interface WriteTarget {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  object: KubeObject;
  oldObject?: KubeObject;
  namespace: string;
  name: string;
  subresource: string;
  dryRun: boolean;
  /** Fields of the operation's options beyond dryRun and fieldManager (e.g. a delete's propagationPolicy). */
  options?: Record<string, unknown>;
}

const optionsKind = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

/** The attributes of one write of the request's resource (kind and resource in the version the client addressed). */
export function writeAttributes(scope: RequestScope, target: WriteTarget): WriteAttributes {
  const { rt, version } = scope;
  const { options, ...rest } = target;
  const fieldManager = target.operation === 'DELETE' ? null : scope.query.get('fieldManager');
  return {
    ...rest,
    rt,
    version,
    kind: { group: rt.group, version, kind: rt.names.kind },
    resource: { group: rt.group, version, resource: rt.names.plural },
    userInfo: scope.user,
    options: {
      kind: optionsKind[target.operation],
      apiVersion: 'meta.k8s.io/v1',
      ...(target.dryRun ? { dryRun: ['All'] } : {}),
      ...(fieldManager ? { fieldManager } : {}),
      ...options,
    },
    warnings: [],
  };
}
