import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';

const strings = t.slice(t.string());

/** authorization.k8s.io/v1 SelfSubjectRulesReview as kube's decoder sees it. */
export const selfSubjectRulesReviewGoType: GoStructType = kindGoType('v1.SelfSubjectRulesReview', {
  spec: t.struct('v1.SelfSubjectRulesReviewSpec', { namespace: t.string() }),
  status: t.struct('v1.SubjectRulesReviewStatus', {
    resourceRules: t.slice(t.struct('v1.ResourceRule', { verbs: strings, apiGroups: strings, resources: strings, resourceNames: strings })),
    nonResourceRules: t.slice(t.struct('v1.NonResourceRule', { verbs: strings, nonResourceURLs: strings })),
    incomplete: t.bool,
    evaluationError: t.string(),
  }),
});
