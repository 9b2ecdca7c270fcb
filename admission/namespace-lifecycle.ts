import { inject, injectable } from 'tsyringe';
import { Tokens } from '../core/contracts/tokens.js';
import { ApiError, errors, groupResource } from '../core/contracts/api-error.js';
import type { AdmissionAttributes } from '../core/contracts/admission-attributes.js';
import type { AdmissionPlugin } from '../core/contracts/admission-plugin.js';
import type { NamespaceLookup } from '../core/contracts/namespace-lookup.js';
import { systemNamespaces } from '../builtin/namespaces/namespace-resource.js';

/**
 * kube's NamespaceLifecycle: namespaced objects may only be created in a namespace that exists and is not
 * terminating, and the system namespaces may not be deleted. Runs in the mutating phase, as in kube, so it refuses
 * before any other plugin or validation does work.
 */
@injectable()
export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';
  readonly operations = ['CREATE', 'DELETE'] as const;
  readonly rules = [{ apiGroups: ['*'], resources: ['*'] }];
  readonly sideEffects = 'None';

  constructor(@inject(Tokens.NamespaceLookup) private readonly namespaces: NamespaceLookup) {}

  async admit(attrs: AdmissionAttributes): Promise<void> {
    const { group, resource } = attrs.resource;
    if (attrs.operation === 'DELETE') {
      if (group === '' && resource === 'namespaces' && systemNamespaces.includes(attrs.name)) {
        throw errors.forbidden({ group: '', resource: 'namespaces', name: attrs.name }, 'this namespace may not be deleted');
      }
      return;
    }
    if (!attrs.namespace) return; // cluster-scoped
    // As kube: access reviews are always answered; refusing them would tell whether the namespace exists.
    if (group === 'authorization.k8s.io' && resource === 'localsubjectaccessreviews') return;
    const ns = await this.namespaces.lookup(attrs.namespace);
    if (!ns) throw errors.notFound({ group: '', resource: 'namespaces', name: attrs.namespace });
    if (ns.metadata?.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
      const name = attrs.object.metadata?.name ?? '';
      throw new ApiError(
        403,
        'Forbidden',
        `${groupResource({ group, resource })} "${name}" is forbidden: unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
        {
          name,
          ...(group ? { group } : {}),
          kind: resource,
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace' }],
        },
      );
    }
  }
}
