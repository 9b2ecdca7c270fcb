import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';

/** authentication/v1 UserInfo. */
const userInfoGoType = t.struct('v1.UserInfo', {
  username: t.string(),
  uid: t.string(),
  groups: t.slice(t.string()),
  extra: t.map(t.slice(t.string(), 'v1.ExtraValue')),
});

/** authentication.k8s.io/v1 TokenReview as kube's decoder sees it. */
export const tokenReviewGoType: GoStructType = kindGoType('v1.TokenReview', {
  spec: t.struct('v1.TokenReviewSpec', { token: t.string(), audiences: t.slice(t.string()) }),
  status: t.struct('v1.TokenReviewStatus', { authenticated: t.bool, user: userInfoGoType, audiences: t.slice(t.string()), error: t.string() }),
});

/** authentication.k8s.io/v1 SelfSubjectReview as kube's decoder sees it. */
export const selfSubjectReviewGoType: GoStructType = kindGoType('v1.SelfSubjectReview', {
  status: t.struct('v1.SelfSubjectReviewStatus', { userInfo: userInfoGoType }),
});

/** A decoded TokenReview's fields kapi reads. */
export interface TokenReview {
  spec?: { token?: string; audiences?: string[] };
}
