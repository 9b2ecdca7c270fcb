import type { StatusCause } from '../../core/contracts/status.js';
import { fieldErrors } from '../../core/contracts/api-error.js';
import { goQuote } from '../../lib/go/go-values.js';
import { parseGoUrl } from '../../lib/go/go-url.js';
import type { Crd, CrdCondition } from './crd-types.js';

/** The annotation a CRD in a group owned by the Kubernetes project must carry (kube's KubeAPIApprovedAnnotation). */
export const apiApprovedAnnotation = 'api-approved.kubernetes.io';

const annotationPath = `metadata.annotations[${apiApprovedAnnotation}]`;
const enhancement = 'see https://github.com/kubernetes/enhancements/pull/1111';

type ApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

/** Groups owned by the Kubernetes project: `k8s.io`, `kubernetes.io` and their subdomains (kube's IsProtectedCommunityGroup). */
export function isProtectedGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io'].some((owned) => group === owned || group.endsWith(`.${owned}`));
}

/** kube's test of an approval URL: it parses (Go's url.ParseRequestURI) with a scheme and a host. */
function isApprovalUrl(value: string): boolean {
  const url = parseGoUrl(value);
  return !('error' in url) && url.scheme !== '' && url.host !== '';
}

/** kube's GetAPIApprovalState: the state of a CRD's approval annotation and the reason kube gives for it. */
function approvalState(crd: Crd): { state: ApprovalState; reason: string; value: string } {
  const value = crd.metadata?.annotations?.[apiApprovedAnnotation] ?? '';
  if (value === '') return { state: 'Missing', reason: `protected groups must have approval annotation ${goQuote(apiApprovedAnnotation)}, ${enhancement}`, value };
  if (value.startsWith('unapproved')) return { state: 'Bypassed', reason: `not approved: ${goQuote(value)}`, value };
  if (isApprovalUrl(value)) return { state: 'Approved', reason: `approved in ${value}`, value };
  return {
    state: 'Invalid',
    reason: `protected groups must have approval annotation ${goQuote(apiApprovedAnnotation)} with either a URL or a reason starting with "unapproved", ${enhancement}`,
    value,
  };
}

/**
 * kube's validateAPIApproval: a CRD in a protected group needs the approval annotation (a URL, or a reason starting
 * with "unapproved"). An update that leaves the approval state as it was is never refused for it.
 */
export function validateApiApproval(crd: Crd, old?: Crd): StatusCause[] {
  if (typeof crd.spec?.group !== 'string' || !isProtectedGroup(crd.spec.group)) return [];
  const { state, reason, value } = approvalState(crd);
  if (old && approvalState(old).state === state) return [];
  if (state === 'Missing') return [fieldErrors.required(annotationPath, reason)];
  if (state === 'Invalid') return [fieldErrors.invalid(annotationPath, value, reason)];
  return [];
}

const conditionType = 'KubernetesAPIApprovalPolicyConformant';

const conditions: Record<ApprovalState, Pick<CrdCondition, 'status' | 'reason'>> = {
  Invalid: { status: 'False', reason: 'InvalidAnnotation' },
  Missing: { status: 'False', reason: 'MissingAnnotation' },
  Approved: { status: 'True', reason: 'ApprovedAnnotation' },
  Bypassed: { status: 'False', reason: 'UnapprovedAnnotation' },
};

/** The KubernetesAPIApprovalPolicyConformant condition kube's API approval controller sets on a CRD of a protected group. */
export function apiApprovalCondition(crd: Crd): Omit<CrdCondition, 'lastTransitionTime'> | undefined {
  if (!isProtectedGroup(crd.spec.group)) return undefined;
  const { state, reason } = approvalState(crd);
  return { type: conditionType, ...conditions[state], message: reason };
}
