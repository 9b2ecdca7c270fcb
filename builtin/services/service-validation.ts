import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { validateLabels } from '../../lib/k8s/labels.js';
import { isDNS1123Subdomain } from '../../lib/k8s/names.js';
import {
  dns1123LabelCauses,
  ipCauses,
  nonSpecialIPCauses,
  parseIPv4,
  portNumOrNameCauses,
  portNumProblems,
  portProtocols,
  qualifiedNameCauses,
} from '../../lib/k8s/network-validation.js';
import { clusterIPNone, externallyAccessible, isHeadless, needsHealthCheck, type Service, type ServicePort, type ServiceSpec } from './service-types.js';

/*
 * kube's ValidateService, ValidateServiceUpdate and ValidateServiceStatusUpdate beyond metadata
 * (pkg/apis/core/validation), with their texts and order.
 */

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const sessionAffinities = ['ClientIP', 'None'];
const ipFamilies = ['IPv4', 'IPv6'];
const ipFamilyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const trafficPolicies = ['Cluster', 'Local'];
/** kube's MaxClientIPServiceAffinitySeconds (one day). */
const maxClientIPAffinitySeconds = 86400;

export function serviceCauses(svc: Service): StatusCause[] {
  const spec = svc.spec ?? {};
  const causes: StatusCause[] = [];
  const headless = isHeadless(spec);
  if (!spec.ports?.length && !headless && spec.type !== 'ExternalName') causes.push(fieldErrors.required('spec.ports'));
  if (spec.type === 'LoadBalancer' && headless) causes.push(fieldErrors.invalid('spec.clusterIPs[0]', clusterIPNone, "may not be set to 'None' for LoadBalancer services"));
  if (spec.type === 'NodePort' && headless) causes.push(fieldErrors.invalid('spec.clusterIPs[0]', clusterIPNone, "may not be set to 'None' for NodePort services"));
  if (spec.type === 'ExternalName') causes.push(...externalNameCauses(spec));

  const names = new Set<string>();
  (spec.ports ?? []).forEach((port, i) => causes.push(...portCauses(port, (spec.ports?.length ?? 0) > 1, names, `spec.ports[${i}]`)));
  if (spec.selector) causes.push(...validateLabels(spec.selector, 'spec.selector'));

  if (!spec.sessionAffinity) causes.push(fieldErrors.required('spec.sessionAffinity'));
  else if (!sessionAffinities.includes(spec.sessionAffinity)) causes.push(fieldErrors.notSupported('spec.sessionAffinity', spec.sessionAffinity, sessionAffinities));
  if (spec.sessionAffinity === 'ClientIP') causes.push(...clientIPAffinityCauses(spec));
  else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig) {
    causes.push(fieldErrors.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }

  causes.push(...clusterIPsRelatedCauses(spec));
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const invalid = ipCauses(`spec.externalIPs[${i}]`, ip);
    causes.push(...(invalid.length ? invalid : nonSpecialIPCauses(`spec.externalIPs[${i}]`, ip)));
  });

  if (!spec.type) causes.push(fieldErrors.required('spec.type'));
  else if (!serviceTypes.includes(spec.type)) causes.push(fieldErrors.notSupported('spec.type', spec.type, serviceTypes));
  if (spec.type === 'ClusterIP') {
    (spec.ports ?? []).forEach((p, i) => p.nodePort && causes.push(fieldErrors.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'")));
  }
  causes.push(...duplicatePortCauses(spec.ports ?? []));

  if (spec.loadBalancerSourceRanges?.length) {
    if (spec.type !== 'LoadBalancer') causes.push(fieldErrors.forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer') {
    causes.push(fieldErrors.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) causes.push(fieldErrors.required('allocateLoadBalancerNodePorts'));
  if (spec.loadBalancerClass !== undefined) {
    if (spec.type !== 'LoadBalancer') causes.push(fieldErrors.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
    else causes.push(...qualifiedNameCauses('spec.loadBalancerClass', spec.loadBalancerClass));
  }
  causes.push(...externalTrafficPolicyCauses(spec));
  if (spec.internalTrafficPolicy === undefined) {
    // kube does not require it of ExternalName services, which never had it.
    if (spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer') causes.push(fieldErrors.required('spec.internalTrafficPolicy'));
  } else if (!trafficPolicies.includes(spec.internalTrafficPolicy)) {
    causes.push(fieldErrors.notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, trafficPolicies));
  }
  if (spec.trafficDistribution !== undefined && spec.trafficDistribution !== 'PreferClose') {
    causes.push(fieldErrors.notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  }
  return causes;
}

function externalNameCauses(spec: ServiceSpec): StatusCause[] {
  const causes: StatusCause[] = [];
  if (spec.clusterIPs?.length) causes.push(fieldErrors.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
  if (spec.ipFamilies?.length) causes.push(fieldErrors.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
  if (spec.ipFamilyPolicy !== undefined) causes.push(fieldErrors.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
  // A CNAME may end in a dot: it is fully qualified.
  const cname = (spec.externalName ?? '').replace(/\.$/, '');
  if (cname) causes.push(...isDNS1123Subdomain(cname).map((msg) => fieldErrors.invalid('spec.externalName', cname, msg)));
  else causes.push(fieldErrors.required('spec.externalName'));
  return causes;
}

function portCauses(port: ServicePort, requireName: boolean, names: Set<string>, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (requireName && !port.name) causes.push(fieldErrors.required(`${path}.name`));
  else if (port.name) {
    causes.push(...dns1123LabelCauses(`${path}.name`, port.name));
    if (names.has(port.name)) causes.push(fieldErrors.duplicate(`${path}.name`, port.name));
    else names.add(port.name);
  }
  for (const msg of portNumProblems(port.port ?? 0)) causes.push(fieldErrors.invalid(`${path}.port`, port.port ?? 0, msg));
  if (!port.protocol) causes.push(fieldErrors.required(`${path}.protocol`));
  else if (!portProtocols.includes(port.protocol)) causes.push(fieldErrors.notSupported(`${path}.protocol`, port.protocol, portProtocols));
  causes.push(...portNumOrNameCauses(`${path}.targetPort`, port.targetPort ?? 0));
  if (port.appProtocol !== undefined) causes.push(...qualifiedNameCauses(`${path}.appProtocol`, port.appProtocol));
  return causes;
}

function clientIPAffinityCauses(spec: ServiceSpec): StatusCause[] {
  const when = 'when session affinity type is ClientIP';
  const config = spec.sessionAffinityConfig;
  if (!config) return [fieldErrors.required('spec.sessionAffinityConfig', when)];
  if (!config.clientIP) return [fieldErrors.required('spec.sessionAffinityConfig.clientIP', when)];
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout === undefined) return [fieldErrors.required('spec.sessionAffinityConfig.clientIP.timeoutSeconds', when)];
  if (timeout <= 0 || timeout > maxClientIPAffinitySeconds) {
    return [fieldErrors.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, `must be greater than 0 and less than ${maxClientIPAffinitySeconds}`)];
  }
  return [];
}

/** Node ports and ports are unique per protocol. */
function duplicatePortCauses(ports: ServicePort[]): StatusCause[] {
  const causes: StatusCause[] = [];
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p.nodePort) return;
    const key = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(key)) causes.push(fieldErrors.duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol}/${p.port}`;
    // kube reports the duplicate as the ServicePort holding only port and protocol
    if (seen.has(key)) causes.push(fieldErrors.duplicate(`spec.ports[${i}]`, { port: p.port ?? 0, protocol: p.protocol ?? '', targetPort: 0 }));
    seen.add(key);
  });
  return causes;
}

function externalTrafficPolicyCauses(spec: ServiceSpec): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!externallyAccessible(spec)) {
    if (spec.externalTrafficPolicy) {
      causes.push(fieldErrors.invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
    }
  } else if (!spec.externalTrafficPolicy) causes.push(fieldErrors.required('spec.externalTrafficPolicy'));
  else if (!trafficPolicies.includes(spec.externalTrafficPolicy)) {
    causes.push(fieldErrors.notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, trafficPolicies));
  }
  const healthCheck = spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(spec)) {
    if (healthCheck !== 0) {
      causes.push(fieldErrors.invalid('spec.healthCheckNodePort', healthCheck, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    }
  } else if (healthCheck === 0) causes.push(fieldErrors.required('spec.healthCheckNodePort'));
  else for (const msg of portNumProblems(healthCheck)) causes.push(fieldErrors.invalid('spec.healthCheckNodePort', healthCheck, msg));
  return causes;
}

/**
 * kube's ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs agree, families and policy are known, the
 * IPs are IPs (None only alone), at most one per family and of the family named. Also run before allocation.
 */
export function clusterIPsRelatedCauses(spec: ServiceSpec): StatusCause[] {
  if (spec.type === 'ExternalName') return [];
  const causes: StatusCause[] = [];
  const ips = spec.clusterIPs ?? [];
  if (spec.clusterIP) {
    if (!ips.length) causes.push(fieldErrors.required('spec.clusterIPs'));
    else if (ips[0] !== spec.clusterIP) causes.push(fieldErrors.invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  } else if (ips.length) causes.push(fieldErrors.invalid('spec.clusterIPs', ips, 'must be empty when `clusterIP` is not specified'));

  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((family, i) => {
    if (!ipFamilies.includes(family)) causes.push(fieldErrors.notSupported(`spec.ipFamilies[${i}]`, family, ipFamilies));
    if (seen.has(family)) causes.push(fieldErrors.duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  });
  if (spec.ipFamilyPolicy !== undefined && !ipFamilyPolicies.includes(spec.ipFamilyPolicy)) {
    causes.push(fieldErrors.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, ipFamilyPolicies));
  }

  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === clusterIPNone) {
      if (ips.length > 1) {
        invalidIPs = true;
        causes.push(fieldErrors.invalid('spec.clusterIPs', ips, "'None' must be the first and only value"));
      }
      return;
    }
    const invalid = ipCauses(`spec.clusterIPs[${i}]`, ip);
    invalidIPs ||= invalid.length > 0;
    causes.push(...invalid);
  });
  if (ips.length > 2) causes.push(fieldErrors.invalid('spec.clusterIPs', ips, 'may only hold up to 2 values'));
  if (invalidIPs) return causes;

  if (ips.length > 1 && (parseIPv4(ips[0]!) === undefined) === (parseIPv4(ips[1]!) === undefined)) {
    causes.push(fieldErrors.invalid('spec.clusterIPs', ips, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec)) {
    ips.forEach((ip, i) => {
      const family = spec.ipFamilies?.[i];
      const v4 = parseIPv4(ip) !== undefined;
      if (family === 'IPv4' && !v4) causes.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (family === 'IPv6' && v4) causes.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return causes;
}

/** kube's ValidateServiceUpdate beyond ValidateService: cluster IPs and the primary family stay, a health check port stays. */
export function serviceUpdateCauses(svc: Service, old: Service): StatusCause[] {
  const spec = svc.spec ?? {};
  const was = old.spec ?? {};
  const causes: StatusCause[] = [];
  if (spec.type !== 'ExternalName' && was.type !== 'ExternalName' && !(isHeadless(spec) && isHeadless(was))) {
    const ips = spec.clusterIPs ?? [];
    const oldIPs = was.clusterIPs ?? [];
    if (ips.length === oldIPs.length) {
      oldIPs.forEach((ip, i) => ip !== ips[i] && causes.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, ips, 'may not change once set')));
    } else if (oldIPs.length > ips.length) {
      if (!ips.length) causes.push(fieldErrors.invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset'));
      else if (ips[0] !== oldIPs[0]) causes.push(fieldErrors.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
    } else if (oldIPs.length && ips[0] !== oldIPs[0]) causes.push(fieldErrors.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
  }
  if (spec.type !== 'ExternalName' && was.type !== 'ExternalName' && isHeadless(spec) === isHeadless(was) && !isHeadless(spec)) {
    const families = spec.ipFamilies ?? [];
    const oldFamilies = was.ipFamilies ?? [];
    if (families.length === oldFamilies.length && oldFamilies.some((f, i) => f !== families[i])) {
      causes.push(fieldErrors.invalid('spec.ipFamilies[0]', families, 'may not change once set'));
    }
  }
  if (was.loadBalancerClass !== undefined && spec.type === 'LoadBalancer' && was.type === 'LoadBalancer' && spec.loadBalancerClass !== was.loadBalancerClass) {
    causes.push(fieldErrors.invalid('spec.loadBalancerClass', spec.loadBalancerClass ?? null, 'may not change once set'));
  }
  if (needsHealthCheck(was) && needsHealthCheck(spec) && spec.healthCheckNodePort !== was.healthCheckNodePort) {
    causes.push(fieldErrors.forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return [...causes, ...serviceCauses(svc)];
}

/** kube's ValidateServiceStatusUpdate: the load balancer's ingress points. */
export function serviceStatusCauses(svc: Service): StatusCause[] {
  const causes: StatusCause[] = [];
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ingress, i) => {
    const path = `status.loadBalancer.ingress[${i}]`;
    if (ingress.ip) causes.push(...ipCauses(`${path}.ip`, ingress.ip));
    if (ingress.hostname) {
      for (const msg of isDNS1123Subdomain(ingress.hostname)) causes.push(fieldErrors.invalid(`${path}.hostname`, ingress.hostname, msg));
      if (parseIPv4(ingress.hostname) !== undefined) causes.push(fieldErrors.invalid(`${path}.hostname`, ingress.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return causes;
}

