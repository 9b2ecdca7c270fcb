import { externallyAccessible, needsNodePorts, sameList, type Service, type ServiceSpec, specOf } from './service-types.js';

/** kube's DefaultClientIPServiceAffinitySeconds (3 hours). */
const defaultClientIPAffinitySeconds = 10800;

/** kube's SetDefaults_Service (pkg/apis/core/v1/defaults.go). */
export function defaultService(svc: Service): void {
  const spec = specOf(svc);
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPAffinitySeconds } };
  }
  spec.type ||= 'ClusterIP';
  for (const port of spec.ports ?? []) {
    port.protocol ||= 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port ?? 0;
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && spec.type !== 'ExternalName' && isKnownType(spec)) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
}

function isKnownType(spec: ServiceSpec): boolean {
  return spec.type === 'ClusterIP' || needsNodePorts(spec);
}

/**
 * kube's normalizeClusterIPs: a client that sets only clusterIP (an older one) gets clusterIPs from it; on update, a
 * client that left clusterIPs out keeps the stored ones, and one that cleared clusterIP clears them too.
 */
export function normalizeClusterIPs(spec: ServiceSpec, old: ServiceSpec | undefined): void {
  if (!old) {
    if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  if (old.clusterIPs?.length && !spec.clusterIPs?.length && (old.clusterIP ?? '') === (spec.clusterIP ?? '')) spec.clusterIPs = old.clusterIPs;
  if ((old.clusterIP ?? '') !== (spec.clusterIP ?? '')) {
    const same = sameList(old.clusterIPs, spec.clusterIPs);
    if (old.clusterIP && !spec.clusterIP && same) delete spec.clusterIPs;
    else if (same) spec.clusterIPs = [spec.clusterIP ?? ''];
  }
}

/**
 * kube's patchAllocatedValues: an update that leaves out what was allocated (a PUT of a manifest without clusterIP or
 * nodePort) keeps it, while the type still needs it; node ports are matched by port name.
 */
export function keepAllocatedValues(spec: ServiceSpec, old: ServiceSpec): void {
  if (old.type !== 'ExternalName' && spec.type !== 'ExternalName' && !spec.clusterIP && old.clusterIP) {
    spec.clusterIP = old.clusterIP;
    spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePorts(old) && needsNodePorts(spec)) {
    const byName = new Map((old.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    const used = new Set((spec.ports ?? []).map((p) => p.nodePort ?? 0));
    for (const port of spec.ports ?? []) {
      const kept = byName.get(port.name ?? '') ?? 0;
      if (!port.nodePort && kept && !used.has(kept)) port.nodePort = kept;
    }
  }
  if (old.type === 'LoadBalancer' && spec.type === 'LoadBalancer' && old.externalTrafficPolicy === 'Local' && spec.externalTrafficPolicy === 'Local') {
    spec.healthCheckNodePort ||= old.healthCheckNodePort;
  }
}

/**
 * kube's dropTypeDependentFields: a type change drops what only the old type had, unless the client changed it
 * (cluster IPs and IP families on a change to ExternalName, node ports on a change to a type without them).
 */
export function dropTypeDependentFields(spec: ServiceSpec, old: ServiceSpec): void {
  if (old.type === spec.type) return;
  if (spec.type === 'ExternalName') {
    if (sameList(old.clusterIPs, spec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameList(old.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (old.ipFamilyPolicy === spec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePorts(old) && !needsNodePorts(spec)) {
    const oldPorts = new Map((old.ports ?? []).map((p) => [`${p.port}/${p.protocol}`, p.nodePort]));
    for (const port of spec.ports ?? []) if (port.nodePort && oldPorts.get(`${port.port}/${port.protocol}`) === port.nodePort) delete port.nodePort;
  }
  if (old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (old.allocateLoadBalancerNodePorts === spec.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if (old.loadBalancerClass === spec.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (old.healthCheckNodePort && spec.healthCheckNodePort === old.healthCheckNodePort && !(spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local')) {
    delete spec.healthCheckNodePort;
  }
  if (!externallyAccessible(spec) && old.externalTrafficPolicy === spec.externalTrafficPolicy) delete spec.externalTrafficPolicy;
  if (spec.type === 'ExternalName' && old.internalTrafficPolicy === spec.internalTrafficPolicy) delete spec.internalTrafficPolicy;
}
