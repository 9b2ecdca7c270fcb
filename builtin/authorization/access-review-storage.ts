import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { RestContext, RestStorage } from '../../core/contracts/rest-storage.js';
import type { UserInfo } from '../../core/contracts/authenticator.js';
import type { AuthorizationAttributes, AuthorizationChain } from '../../core/contracts/authorizer.js';
import { errors } from '../../core/contracts/api-error.js';
import { goDecode, type GoStructType } from '../../lib/go/json-decoding.js';
import type { AccessReview, NonResourceAttributes, ResourceAttributes } from './access-review-go-types.js';
import { accessReviewCauses } from './access-review-validation.js';
import { reviewSelectors } from './access-review-selectors.js';

export type AccessReviewKind = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview';

/**
 * An access review (kube's pkg/registry/authorization *subjectaccessreview REST): create only, never stored. The
 * review is validated, its subject — the one in the spec, or the requesting (possibly impersonated) user for a
 * SelfSubjectAccessReview — asked of the server's authorizers, and the review answered with their decision in
 * `status`.
 */
export class AccessReviewStorage implements RestStorage {
  constructor(
    private readonly reviewKind: AccessReviewKind,
    private readonly goType: GoStructType,
    private readonly authorization: () => AuthorizationChain,
  ) {}

  async create(ctx: RestContext, body: KubeObject): Promise<KubeObject> {
    const review = decode(body, this.reviewKind, this.goType);
    // A local review's metadata.namespace is the URL's already (kapi set an empty one and refused another).
    const causes = accessReviewCauses(this.reviewKind, review);
    if (causes.length > 0) throw errors.invalid({ group: 'authorization.k8s.io', resource: '', kind: this.reviewKind, name: '' }, causes);
    const spec = review.spec ?? {};
    const subject: UserInfo =
      this.reviewKind === 'SelfSubjectAccessReview'
        ? ctx.user
        : {
            username: spec.user ?? '',
            groups: spec.groups ?? [],
            ...(spec.uid ? { uid: spec.uid } : {}),
            ...(spec.extra ? { extra: Object.fromEntries(Object.entries(spec.extra).map(([k, v]) => [k, v ?? []])) } : {}),
          };
    const attrs = spec.resourceAttributes ? resourceAttributes(subject, spec.resourceAttributes) : nonResourceAttributes(subject, spec.nonResourceAttributes ?? {});
    const result = await this.authorization().authorize(attrs);
    // Go's zero ObjectMeta: its creationTimestamp, no omitempty for a struct, is always written (as null).
    const metadata: Record<string, unknown> = { creationTimestamp: null, ...review.metadata };
    return {
      ...(review as KubeObject),
      metadata,
      status: {
        allowed: result.decision === 'allow',
        ...(result.decision === 'deny' ? { denied: true } : {}),
        ...(result.reason ? { reason: result.reason } : {}),
        ...(result.evaluationError ? { evaluationError: result.evaluationError } : {}),
      },
    };
  }
}

/** The body decoded into kube's type: a value of the wrong type is kube's 400. */
function decode(body: KubeObject, kind: AccessReviewKind, goType: GoStructType): AccessReview {
  const review = structuredClone(body);
  const { error } = goDecode(review, goType);
  if (error) throw errors.badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${error}`);
  return review as AccessReview;
}

/** kube's ResourceAttributesFrom: an empty version is any version; the selectors as reviewSelectors reads them. */
function resourceAttributes(user: UserInfo, a: ResourceAttributes): AuthorizationAttributes {
  return {
    user,
    verb: a.verb ?? '',
    isResourceRequest: true,
    path: '',
    namespace: a.namespace ?? '',
    apiGroup: a.group ?? '',
    apiVersion: a.version || '*',
    resource: a.resource ?? '',
    subresource: a.subresource ?? '',
    name: a.name ?? '',
    ...reviewSelectors(a),
  };
}

function nonResourceAttributes(user: UserInfo, a: NonResourceAttributes): AuthorizationAttributes {
  return { user, verb: a.verb ?? '', isResourceRequest: false, path: a.path ?? '' };
}
