import { goTypes as t, type GoStructType, type GoType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';

/** authorization.k8s.io/v1 access reviews as kube's decoder sees them. */

const selectorRequirement = (name: string, operator: string): GoType => t.struct(name, { key: t.string(), operator: t.string(operator), values: t.slice(t.string()) });

const resourceAttributes = t.struct('v1.ResourceAttributes', {
  namespace: t.string(),
  verb: t.string(),
  group: t.string(),
  version: t.string(),
  resource: t.string(),
  subresource: t.string(),
  name: t.string(),
  fieldSelector: t.struct('v1.FieldSelectorAttributes', { rawSelector: t.string(), requirements: t.slice(selectorRequirement('v1.FieldSelectorRequirement', 'selection.Operator')) }),
  labelSelector: t.struct('v1.LabelSelectorAttributes', { rawSelector: t.string(), requirements: t.slice(selectorRequirement('v1.LabelSelectorRequirement', 'v1.LabelSelectorOperator')) }),
});

const nonResourceAttributes = t.struct('v1.NonResourceAttributes', { path: t.string(), verb: t.string() });

const status = t.struct('v1.SubjectAccessReviewStatus', { allowed: t.bool, denied: t.bool, reason: t.string(), evaluationError: t.string() });

const subjectSpec = t.struct('v1.SubjectAccessReviewSpec', {
  resourceAttributes,
  nonResourceAttributes,
  user: t.string(),
  groups: t.slice(t.string()),
  extra: t.map(t.slice(t.string(), 'v1.ExtraValue')),
  uid: t.string(),
});

export const subjectAccessReviewGoType: GoStructType = kindGoType('v1.SubjectAccessReview', { spec: subjectSpec, status });
export const localSubjectAccessReviewGoType: GoStructType = kindGoType('v1.LocalSubjectAccessReview', { spec: subjectSpec, status });
export const selfSubjectAccessReviewGoType: GoStructType = kindGoType('v1.SelfSubjectAccessReview', {
  spec: t.struct('v1.SelfSubjectAccessReviewSpec', { resourceAttributes, nonResourceAttributes }),
  status,
});

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: unknown;
  labelSelector?: unknown;
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** A decoded access review's fields kapi reads (the self review's spec has no subject). */
export interface AccessReview {
  metadata?: Record<string, unknown> & { namespace?: string };
  spec?: {
    resourceAttributes?: ResourceAttributes | null;
    nonResourceAttributes?: NonResourceAttributes | null;
    user?: string;
    groups?: string[] | null;
    extra?: Record<string, string[] | null> | null;
    uid?: string;
  } | null;
}
