import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { parseIPv4 } from '../../lib/k8s/network-validation.js';
import { clusterIPNone, sameList, type ServiceSpec } from './service-types.js';

/**
 * kube's initIPFamilyFields on a single-stack IPv4 cluster (kapi serves IPv4 service ranges only): ipFamilyPolicy
 * (kept from the stored object on update, SingleStack on create; a headless Service without selector asks for
 * RequireDualStack) and ipFamilies (from the cluster IPs, else IPv4), with kube's errors for what this cluster cannot
 * give. Returns the causes of a 422; the spec is filled in only when there are none.
 */
export function initIPFamilyFields(spec: ServiceSpec, old: ServiceSpec | undefined): StatusCause[] {
  if (spec.type === 'ExternalName') return [];
  const headlessSelectorless = spec.clusterIP === clusterIPNone && !Object.keys(spec.selector ?? {}).length;
  spec.ipFamilyPolicy ??= old?.ipFamilyPolicy ?? (headlessSelectorless ? 'RequireDualStack' : 'SingleStack');

  const causes: StatusCause[] = [];
  if (old && spec.ipFamilyPolicy === 'SingleStack') {
    // the same secondary values as before, with SingleStack: the client asks to drop them
    if ((spec.clusterIPs?.length ?? 0) > 1 && sameList(old.clusterIPs, spec.clusterIPs)) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
    if ((spec.ipFamilies?.length ?? 0) > 1 && sameList(old.ipFamilies, spec.ipFamilies)) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
  }
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (spec.clusterIPs?.length === 2) {
      causes.push(fieldErrors.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    }
    if (spec.ipFamilies?.length === 2) {
      causes.push(fieldErrors.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
  }
  const families = [...(spec.ipFamilies ?? [])];
  (spec.clusterIPs ?? []).every((ip, i) => {
    if (ip === clusterIPNone) return false;
    const family = parseIPv4(ip) !== undefined ? 'IPv4' : 'IPv6';
    if (i >= families.length) {
      if (family === 'IPv6') causes.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, spec.clusterIPs, 'IPv6 is not configured on this cluster'));
      else families.push(family);
    }
    return true;
  });
  if (causes.length) return causes;

  if (headlessSelectorless) {
    // kube lets a headless Service without selector carry both families, even on a single-stack cluster
    if (!families.length) families.push('IPv4');
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec.ipFamilies = families;
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack') {
    causes.push(fieldErrors.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
  }
  families.forEach((family, i) => family !== 'IPv4' && causes.push(fieldErrors.invalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster')));
  if (causes.length) return causes;
  spec.ipFamilies = families.length ? families : ['IPv4'];
  return [];
}
