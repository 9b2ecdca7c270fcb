import { defineModule, resolveLater, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { accessReviewResources } from './access-review-resources.js';

/**
 * Serves authorization.k8s.io/v1 SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview (what
 * `kubectl auth can-i` asks), answered by the server's authorizers.
 */
export function accessReviewsModule(): Module {
  return defineModule('access-reviews', (c) => {
    for (const rt of accessReviewResources(resolveLater(c, Tokens.Authorization))) c.register(Tokens.BuiltinResource, { useValue: rt });
  });
}
