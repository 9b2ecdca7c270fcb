import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { goQuote } from '../../lib/go/go-values.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName, isValidPathSegmentPrefix } from '../../lib/k8s/names.js';
import { portNumProblems } from '../../lib/k8s/network-validation.js';
import type { APIService } from './apiservice-types.js';

/** The length of a base64 []byte, as Go holds it. */
function byteLength(base64: string | undefined): number {
  return base64 ? Buffer.from(base64, 'base64').length : 0;
}

/**
 * kube-aggregator's ValidateAPIService beyond ObjectMeta (whose path-segment name rule the generic validation checks):
 * the name must be `version.group`, group and version well formed, priorities in range, and a local APIService (no
 * service) without TLS settings.
 */
export function validateAPIService(apiService: APIService): StatusCause[] {
  const spec = apiService.spec ?? {};
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const requiredName = `${version}.${group}`;
  const causes: StatusCause[] = [];
  const mustBeRequiredName = `must be \`spec.version+"."+spec.group\`: ${goQuote(requiredName)}`;
  const { name, generateName } = apiService.metadata ?? {};
  if (generateName && isValidPathSegmentPrefix(generateName).length === 0 && generateName !== requiredName) {
    causes.push(fieldErrors.invalid('metadata.generateName', generateName, mustBeRequiredName));
  }
  if (name && isValidPathSegmentName(name).length === 0 && name !== requiredName) {
    causes.push(fieldErrors.invalid('metadata.name', name, mustBeRequiredName));
  }

  if (group === '' && version !== 'v1') causes.push(fieldErrors.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) causes.push(fieldErrors.invalid('spec.group', group, msg));
  for (const msg of isDNS1035Label(version)) causes.push(fieldErrors.invalid('spec.version', version, msg));

  const groupPriority = spec.groupPriorityMinimum ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) {
    causes.push(fieldErrors.invalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
  }
  const versionPriority = spec.versionPriority ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) {
    causes.push(fieldErrors.invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
  }

  const caBytes = byteLength(spec.caBundle);
  const insecure = spec.insecureSkipTLSVerify ?? false;
  const service = spec.service;
  if (!service) {
    if (caBytes !== 0) causes.push(fieldErrors.invalid('spec.caBundle', `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (insecure) causes.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', insecure, 'local APIServices may not have insecureSkipTLSVerify'));
    return causes;
  }
  if (!service.namespace) causes.push(fieldErrors.required('spec.service.namespace'));
  if (!service.name) causes.push(fieldErrors.required('spec.service.name'));
  const port = service.port ?? 0;
  const portProblems = portNumProblems(port);
  if (portProblems.length) causes.push(fieldErrors.invalid('spec.service.port', port, `port is not valid: ${portProblems.join(', ')}`));
  if (insecure && caBytes > 0) causes.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', insecure, 'may not be true if caBundle is present'));
  return causes;
}

const conditionStatuses = ['True', 'False', 'Unknown'];

/** kube-aggregator's ValidateAPIServiceStatus: each condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(apiService: APIService): StatusCause[] {
  const causes: StatusCause[] = [];
  (apiService.status?.conditions ?? []).forEach((condition, i) => {
    if (!conditionStatuses.includes(condition.status)) {
      causes.push(fieldErrors.notSupported(`status.conditions[${i}].status`, condition.status ?? '', conditionStatuses));
    }
  });
  return causes;
}
