import { defineModule, resolveAllLater, type Module } from '../../core/contracts/module.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { SelfSubjectRulesReviewStorage } from './self-subject-rules-review-storage.js';
import { selfSubjectRulesReviewGoType } from './self-subject-rules-review-go-type.js';

/** Serves authorization.k8s.io/v1 SelfSubjectRulesReview (`kubectl auth can-i --list`), answered by the authorizers. */
export function selfSubjectRulesReviewModule(): Module {
  return defineModule('self-subject-rules-review', (c) => {
    const storage = new SelfSubjectRulesReviewStorage(resolveAllLater(c, Tokens.Authorizer));
    const rt: ResourceType = {
      group: 'authorization.k8s.io',
      names: { plural: 'selfsubjectrulesreviews', singular: 'selfsubjectrulesreview', kind: 'SelfSubjectRulesReview', listKind: 'SelfSubjectRulesReviewList' },
      scope: 'Cluster',
      versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema('selfsubjectrulesreview.v1') }],
      allowUnconditionalUpdate: false,
      verbs: ['create'],
      goType: selfSubjectRulesReviewGoType,
      storage,
    };
    c.register(Tokens.BuiltinResource, { useValue: rt });
  });
}
