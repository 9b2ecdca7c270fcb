import type { KubeObject } from '../../core/contracts/resource-type.js';

/** The group of APIServices. */
export const apiregistrationGroup = 'apiregistration.k8s.io';

/** apiregistration.k8s.io/v1 ServiceReference: the Service an APIService's requests are proxied to. */
export interface APIServiceServiceReference {
  namespace?: string;
  name?: string;
  /** Defaulted to 443. */
  port?: number;
}

export interface APIServiceSpec {
  /** Absent (or null): the group-version is served by this server itself (a local APIService). */
  service?: APIServiceServiceReference | null;
  group?: string;
  version?: string;
  insecureSkipTLSVerify?: boolean;
  /** Base64 of a PEM bundle, as JSON has Go's []byte. */
  caBundle?: string;
  groupPriorityMinimum?: number;
  versionPriority?: number;
}

export interface APIServiceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface APIService extends KubeObject {
  spec?: APIServiceSpec;
  status?: { conditions?: APIServiceCondition[] };
}

/** The label kube's autoregister controller marks the APIServices it manages with. */
export const autoManagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

/** The APIService's Available condition, if any. */
export function availableCondition(apiService: APIService): APIServiceCondition | undefined {
  return apiService.status?.conditions?.find((c) => c.type === 'Available');
}
