import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isDNS1123Subdomain } from '../../lib/k8s/names.js';
import { dns1123LabelCauses, ipCauses, nonSpecialIPCauses, portNumProblems, portProtocols, qualifiedNameCauses } from '../../lib/k8s/network-validation.js';
import type { EndpointAddress, EndpointPort, Endpoints } from './endpoints-types.js';

/** kube's ValidateEndpoints beyond metadata: every subset has addresses, every address is a usable IP, ports as a Service's. */
export function endpointsCauses(ep: Endpoints): StatusCause[] {
  const causes: StatusCause[] = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const path = `subsets[${i}]`;
    if (!ss.addresses?.length && !ss.notReadyAddresses?.length) causes.push(fieldErrors.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    (ss.addresses ?? []).forEach((a, j) => causes.push(...addressCauses(a, `${path}.addresses[${j}]`)));
    (ss.notReadyAddresses ?? []).forEach((a, j) => causes.push(...addressCauses(a, `${path}.notReadyAddresses[${j}]`)));
    (ss.ports ?? []).forEach((p, j) => causes.push(...portCauses(p, (ss.ports?.length ?? 0) > 1, `${path}.ports[${j}]`)));
  });
  return causes;
}

function addressCauses(address: EndpointAddress, path: string): StatusCause[] {
  const ip = address.ip ?? '';
  const causes = ipCauses(`${path}.ip`, ip);
  if (address.hostname) causes.push(...dns1123LabelCauses(`${path}.hostname`, address.hostname));
  if (address.nodeName !== undefined) {
    for (const msg of isDNS1123Subdomain(address.nodeName)) causes.push(fieldErrors.invalid(`${path}.nodeName`, address.nodeName, msg));
  }
  causes.push(...nonSpecialIPCauses(`${path}.ip`, ip));
  return causes;
}

function portCauses(port: EndpointPort, requireName: boolean, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (requireName && !port.name) causes.push(fieldErrors.required(`${path}.name`));
  else if (port.name) causes.push(...dns1123LabelCauses(`${path}.name`, port.name));
  for (const msg of portNumProblems(port.port ?? 0)) causes.push(fieldErrors.invalid(`${path}.port`, port.port ?? 0, msg));
  if (!port.protocol) causes.push(fieldErrors.required(`${path}.protocol`));
  else if (!portProtocols.includes(port.protocol)) causes.push(fieldErrors.notSupported(`${path}.protocol`, port.protocol, portProtocols));
  if (port.appProtocol !== undefined) causes.push(...qualifiedNameCauses(`${path}.appProtocol`, port.appProtocol));
  return causes;
}
