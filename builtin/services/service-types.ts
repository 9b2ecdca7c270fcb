import type { KubeObject } from '../../core/contracts/resource-type.js';

/** A core/v1 ServicePort, as decoded into its Go type (targetPort: intstr.IntOrString). */
export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: string;
  externalIPs?: string[];
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: string;
  trafficDistribution?: string;
}

export interface ServiceStatus {
  loadBalancer?: { ingress?: { ip?: string; hostname?: string; ipMode?: string }[] };
  conditions?: unknown[];
}

export type Service = KubeObject & { spec?: ServiceSpec; status?: ServiceStatus };

/** The spec, created when absent. */
export function specOf(svc: Service): ServiceSpec {
  return (svc.spec ??= {});
}

/** kube's ClusterIPNone: a headless service. */
export const clusterIPNone = 'None';

/** Whether the Service is headless (clusterIPs is exactly ['None'], as kube's isHeadlessService). */
export function isHeadless(spec: ServiceSpec): boolean {
  return spec.clusterIPs?.length === 1 && spec.clusterIPs[0] === clusterIPNone;
}

/** Types that get node ports. */
export function needsNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** kube's ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with external IPs. */
export function externallyAccessible(spec: ServiceSpec): boolean {
  return needsNodePorts(spec) || (spec.type === 'ClusterIP' && (spec.externalIPs?.length ?? 0) > 0);
}

/** kube's NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** Whether two optional lists hold the same values in the same order (absent and empty alike). */
export function sameList(a: string[] | undefined, b: string[] | undefined): boolean {
  return (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b![i]);
}
