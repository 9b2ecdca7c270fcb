import type { WriteAttributes, WriteStage } from '../../handlers/write-pipeline.js';
import { ApiError, errors, groupResource } from '../../errors/api-error.js';
import type { NamespaceController } from './namespace-controller.js';
import { systemNamespaces } from './namespace-resource.js';

/**
 * Namespaced objects may only be created in a namespace that exists and is not terminating (kube's
 * NamespaceLifecycle admission plugin).
 */
export function namespaceLifecycleGate(namespaces: NamespaceController): WriteStage {
  return {
    name: 'NamespaceLifecycle',
    async run(attrs: WriteAttributes) {
      if (attrs.operation === 'DELETE' && !attrs.rt.custom && attrs.rt.names.plural === 'namespaces' && systemNamespaces.includes(attrs.name)) {
        throw errors.forbidden({ group: '', resource: 'namespaces', name: attrs.name }, 'this namespace may not be deleted');
      }
      if (attrs.operation !== 'CREATE' || attrs.rt.scope !== 'Namespaced') return;
      const ns = await namespaces.lookup(attrs.namespace);
      if (!ns) throw errors.notFound({ group: '', resource: 'namespaces', name: attrs.namespace });
      if (ns.metadata?.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
        const q = { group: attrs.rt.group, resource: attrs.rt.names.plural, name: attrs.object.metadata?.name ?? '' };
        throw new ApiError(
          403,
          'Forbidden',
          `${groupResource(q)} "${q.name}" is forbidden: unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
          {
            name: q.name,
            ...(q.group ? { group: q.group } : {}),
            kind: q.resource,
            causes: [{ reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace' }],
          },
        );
      }
    },
  };
}
