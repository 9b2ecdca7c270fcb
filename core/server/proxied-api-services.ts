import type { Informer } from '../contracts/informer.js';
import type { KubeObject } from '../contracts/resource-type.js';
import type { ProxiedApiService } from './aggregation-proxy.js';

/** The fields of an APIService the proxy reads (apiregistration.k8s.io/v1). */
interface ApiServiceFields extends KubeObject {
  spec?: {
    service?: { namespace?: string; name?: string; port?: number } | null;
    group?: string;
    version?: string;
    caBundle?: string;
    insecureSkipTLSVerify?: boolean;
  };
  status?: { conditions?: { type: string; status: string }[] };
}

/**
 * The APIServices that name a service, by group-version, kept current from the APIService informer (kube's
 * APIServiceRegistrationController hands each one to its proxy handler): where a request goes, and whether the
 * `Available` condition lets it.
 */
export class ProxiedApiServices {
  private byGroupVersion = new Map<string, ProxiedApiService>();

  constructor(informer: Informer) {
    this.rebuild(informer.current());
    informer.subscribe(() => this.rebuild(informer.current()));
  }

  lookup(group: string, version: string): ProxiedApiService | undefined {
    return this.byGroupVersion.get(`${group}/${version}`);
  }

  private rebuild(objects: ReadonlyMap<string, KubeObject>): void {
    const next = new Map<string, ProxiedApiService>();
    for (const [name, object] of objects) {
      const { spec, status } = object as ApiServiceFields;
      const service = spec?.service;
      if (!service) continue;
      next.set(`${spec.group ?? ''}/${spec.version ?? ''}`, {
        name,
        service: { namespace: service.namespace ?? '', name: service.name ?? '', port: service.port ?? 443 },
        ...(spec.caBundle ? { caBundle: spec.caBundle } : {}),
        insecureSkipTLSVerify: spec.insecureSkipTLSVerify === true,
        available: status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') ?? false,
      });
    }
    this.byGroupVersion = next;
  }
}
