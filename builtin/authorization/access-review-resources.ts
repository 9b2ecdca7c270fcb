import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { AuthorizationChain } from '../../core/contracts/authorizer.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { GoStructType } from '../../lib/go/json-decoding.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { AccessReviewStorage, type AccessReviewKind } from './access-review-storage.js';
import { localSubjectAccessReviewGoType, selfSubjectAccessReviewGoType, subjectAccessReviewGoType } from './access-review-go-types.js';

/** The schemas: SubjectAccessReview's; LocalSubjectAccessReview has its fields, SelfSubjectAccessReview its attributes only. */
function schemaOf(kind: AccessReviewKind): JSONSchemaProps {
  const subject = builtinSchema('subjectaccessreview.v1');
  const spec = subject.properties!.spec!;
  switch (kind) {
    case 'SubjectAccessReview':
      return subject;
    case 'LocalSubjectAccessReview':
      return {
        ...subject,
        description:
          'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.',
        properties: {
          ...subject.properties,
          spec: { ...spec, description: 'Spec holds information about the request being evaluated.  spec.namespace must be equal to the namespace you made the request against.  If empty, it is defaulted.' },
        },
      };
    case 'SelfSubjectAccessReview':
      return {
        ...subject,
        description:
          'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
        properties: {
          ...subject.properties,
          spec: {
            type: 'object',
            description: 'Spec holds information about the request being evaluated.  user and groups must be empty',
            properties: { resourceAttributes: spec.properties!.resourceAttributes!, nonResourceAttributes: spec.properties!.nonResourceAttributes! },
          },
        },
      };
  }
}

function accessReview(kind: AccessReviewKind, scope: 'Cluster' | 'Namespaced', goType: GoStructType, authorization: () => AuthorizationChain): ResourceType {
  const singular = kind.toLowerCase();
  return {
    group: 'authorization.k8s.io',
    names: { plural: `${singular}s`, singular, kind, listKind: `${kind}List` },
    scope,
    allowUnconditionalUpdate: false,
    verbs: ['create'],
    versions: [{ name: 'v1', served: true, storage: true, schema: schemaOf(kind) }],
    goType,
    storage: new AccessReviewStorage(kind, goType, authorization),
    ephemeral: true,
  };
}

/** authorization.k8s.io/v1 SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview. */
export function accessReviewResources(authorization: () => AuthorizationChain): ResourceType[] {
  return [
    accessReview('SubjectAccessReview', 'Cluster', subjectAccessReviewGoType, authorization),
    accessReview('LocalSubjectAccessReview', 'Namespaced', localSubjectAccessReviewGoType, authorization),
    accessReview('SelfSubjectAccessReview', 'Cluster', selfSubjectAccessReviewGoType, authorization),
  ];
}
