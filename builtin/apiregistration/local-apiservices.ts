import type { ResourceType } from '../../core/contracts/resource-type.js';
import { customResourcePriority, localAPIServicePriority } from '../../lib/k8s/apiservice-priorities.js';
import { autoManagedLabel, type APIService } from './apiservice-types.js';

/**
 * How kube's autoregister controller keeps a local APIService: `onstart` (a built-in group-version: created when
 * missing as the server starts, then left to the user) or `true` (a CRD's: created, updated and deleted as the CRD
 * changes, re-created when deleted).
 */
export type AutoManaged = 'onstart' | 'true';

export interface DesiredAPIService {
  apiService: APIService;
  mode: AutoManaged;
}

/**
 * The local APIServices of every group-version the served types `served` (in the registry's order) serve, by name
 * (`v1.` for the core group, `v1.apps`): kube-apiserver's priorities for built-in ones (kept on start), 1000/100 for
 * CRD versions (kept in sync), as kube's CRD registration controller gives them.
 */
export function desiredLocalAPIServices(served: readonly ResourceType[]): Map<string, DesiredAPIService> {
  const desired = new Map<string, DesiredAPIService>();
  for (const rt of served) {
    const mode: AutoManaged = rt.definedBy ? 'true' : 'onstart';
    for (const v of rt.versions) {
      if (!v.served) continue;
      const name = `${v.name}.${rt.group}`;
      // a built-in kind's group-version keeps its built-in registration, whatever CRD shares it
      if (desired.get(name)?.mode === 'onstart') continue;
      const priority = mode === 'true' ? customResourcePriority : localAPIServicePriority(rt.group, v.name);
      desired.set(name, {
        mode,
        apiService: {
          apiVersion: 'apiregistration.k8s.io/v1',
          kind: 'APIService',
          metadata: { name, labels: { [autoManagedLabel]: mode } },
          spec: { group: rt.group, version: v.name, ...priority },
        },
      });
    }
  }
  return desired;
}

/** Whether two specs are equal once kube's zero values fill what either leaves out. */
export function sameSpec(a: APIService['spec'], b: APIService['spec']): boolean {
  const normal = (s: APIService['spec'] = {}) =>
    JSON.stringify([
      s.service ? [s.service.namespace ?? '', s.service.name ?? '', s.service.port ?? null] : null,
      s.group ?? '',
      s.version ?? '',
      s.insecureSkipTLSVerify ?? false,
      s.caBundle ?? '',
      s.groupPriorityMinimum ?? 0,
      s.versionPriority ?? 0,
    ]);
  return normal(a) === normal(b);
}
