import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { RestStorage } from '../../core/contracts/rest-storage.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import type { GoStructType } from '../../lib/go/json-decoding.js';
import { selfSubjectReviewGoType, tokenReviewGoType } from './authentication-go-types.js';

/** A cluster-scoped authentication.k8s.io/v1 kind that is only ever created (a review, never stored), served by `storage`. */
function reviewResource(kind: string, plural: string, schema: string, goType: GoStructType, storage: RestStorage): ResourceType {
  return {
    group: 'authentication.k8s.io',
    names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
    scope: 'Cluster',
    allowUnconditionalUpdate: false,
    ephemeral: true,
    verbs: ['create'],
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema(schema) }],
    goType,
    storage,
  };
}

export function tokenReviewResource(storage: RestStorage): ResourceType {
  return reviewResource('TokenReview', 'tokenreviews', 'tokenreview.v1', tokenReviewGoType, storage);
}

export function selfSubjectReviewResource(storage: RestStorage): ResourceType {
  return reviewResource('SelfSubjectReview', 'selfsubjectreviews', 'selfsubjectreview.v1', selfSubjectReviewGoType, storage);
}
