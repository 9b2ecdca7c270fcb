import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { RestStorage } from '../../core/contracts/rest-storage.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';

/** A cluster-scoped authentication.k8s.io/v1 kind that is only ever created (a review, never stored), served by `storage`. */
function reviewResource(kind: string, plural: string, schema: string, storage: RestStorage): ResourceType {
  return {
    group: 'authentication.k8s.io',
    names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
    scope: 'Cluster',
    allowUnconditionalUpdate: false,
    ephemeral: true,
    verbs: ['create'],
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema(schema) }],
    storage,
  };
}

export function tokenReviewResource(storage: RestStorage): ResourceType {
  return reviewResource('TokenReview', 'tokenreviews', 'tokenreview.v1', storage);
}

export function selfSubjectReviewResource(storage: RestStorage): ResourceType {
  return reviewResource('SelfSubjectReview', 'selfsubjectreviews', 'selfsubjectreview.v1', storage);
}
