import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import type { AccessReview, NonResourceAttributes, ResourceAttributes } from './access-review-go-types.js';

/*
 * kube's validation of access reviews (k8s.io/kubernetes pkg/apis/authorization/validation), with its texts. A nil
 * pointer is printed as kube prints it: "null".
 */

type Kind = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview';

export function accessReviewCauses(kind: Kind, review: AccessReview): StatusCause[] {
  const spec = review.spec ?? {};
  const causes: StatusCause[] = [];
  const resource = spec.resourceAttributes ?? undefined;
  const nonResource = spec.nonResourceAttributes ?? undefined;
  if (resource && nonResource) causes.push(invalid('spec.nonResourceAttributes', goNonResourceAttributes(nonResource), 'cannot be specified in combination with resourceAttributes'));
  if (!resource && !nonResource) causes.push(fieldErrors.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (kind !== 'SelfSubjectAccessReview' && !spec.user && !spec.groups?.length) {
    causes.push(fieldErrors.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  }
  if (resource) causes.push(...selectorCauses(resource));
  const meta = setFields(review.metadata ?? {});
  delete meta.managedFields;
  if (kind === 'SubjectAccessReview' && Object.keys(meta).length > 0) causes.push(invalid('metadata', JSON.stringify(meta), 'must be empty'));
  if (kind === 'LocalSubjectAccessReview') {
    const namespace = (meta.namespace as string | undefined) ?? '';
    delete meta.namespace;
    if (Object.keys(meta).length > 0) causes.push(invalid('metadata', JSON.stringify(review.metadata), 'must be empty except for namespace'));
    if (resource && (resource.namespace ?? '') !== namespace) {
      causes.push(fieldErrors.invalid('spec.resourceAttributes.namespace', resource.namespace ?? '', 'must match metadata.namespace'));
    }
    if (nonResource) causes.push(invalid('spec.nonResourceAttributes', goNonResourceAttributes(nonResource), 'disallowed on this kind of request'));
  }
  return causes;
}

/** The fields Go would not leave at their zero value (a client's `creationTimestamp: null` is none). */
function setFields(meta: Record<string, unknown>): Record<string, unknown> {
  const isZero = (v: unknown) =>
    v === null || v === undefined || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && Object.keys(v as object).length === 0);
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => !isZero(v)));
}

/** A selector is a raw selector or requirements, not both and not neither (the requirements themselves are not checked). */
function selectorCauses(attrs: ResourceAttributes): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const which of ['fieldSelector', 'labelSelector'] as const) {
    const selector = attrs[which] as { rawSelector?: string; requirements?: unknown[] | null } | null | undefined;
    if (!selector) continue;
    const path = `spec.resourceAttributes.${which}`;
    const raw = selector.rawSelector ?? '';
    const requirements = selector.requirements?.length ?? 0;
    if (raw && requirements) causes.push(fieldErrors.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
    if (!raw && !requirements) causes.push(fieldErrors.required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  }
  return causes;
}

/** A field error whose value is already printed (a struct, as Go's %#v shows it). */
function invalid(field: string, printed: string, detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${printed}: ${detail}`, field };
}

function goNonResourceAttributes(a: NonResourceAttributes): string {
  return `authorization.NonResourceAttributes{Path:${JSON.stringify(a.path ?? '')}, Verb:${JSON.stringify(a.verb ?? '')}}`;
}
