import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { goTime, kindGoType } from '../../schemas/object-meta-go-type.js';

const strings = t.slice(t.string());

const conditions = (name: string) =>
  t.slice(t.struct(name, { type: t.string(), status: t.string(), lastTransitionTime: goTime, reason: t.string(), message: t.string() }));

const subject = t.struct('v1.Subject', {
  kind: t.string('v1.SubjectKind'),
  user: t.struct('v1.UserSubject', { name: t.string() }),
  group: t.struct('v1.GroupSubject', { name: t.string() }),
  serviceAccount: t.struct('v1.ServiceAccountSubject', { namespace: t.string(), name: t.string() }),
});

/** flowcontrol.apiserver.k8s.io/v1 FlowSchema as kube's decoder sees it. */
export const flowSchemaGoType: GoStructType = kindGoType('v1.FlowSchema', {
  spec: t.struct('v1.FlowSchemaSpec', {
    priorityLevelConfiguration: t.struct('v1.PriorityLevelConfigurationReference', { name: t.string() }),
    matchingPrecedence: t.int32,
    distinguisherMethod: t.struct('v1.FlowDistinguisherMethod', { type: t.string('v1.FlowDistinguisherMethodType') }),
    rules: t.slice(
      t.struct('v1.PolicyRulesWithSubjects', {
        subjects: t.slice(subject),
        resourceRules: t.slice(t.struct('v1.ResourcePolicyRule', { verbs: strings, apiGroups: strings, resources: strings, clusterScope: t.bool, namespaces: strings })),
        nonResourceRules: t.slice(t.struct('v1.NonResourcePolicyRule', { verbs: strings, nonResourceURLs: strings })),
      }),
    ),
  }),
  status: t.struct('v1.FlowSchemaStatus', { conditions: conditions('v1.FlowSchemaCondition') }),
});

/** flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration. */
export const priorityLevelConfigurationGoType: GoStructType = kindGoType('v1.PriorityLevelConfiguration', {
  spec: t.struct('v1.PriorityLevelConfigurationSpec', {
    type: t.string('v1.PriorityLevelEnablement'),
    limited: t.struct('v1.LimitedPriorityLevelConfiguration', {
      nominalConcurrencyShares: t.int32,
      limitResponse: t.struct('v1.LimitResponse', {
        type: t.string('v1.LimitResponseType'),
        queuing: t.struct('v1.QueuingConfiguration', { queues: t.int32, handSize: t.int32, queueLengthLimit: t.int32 }),
      }),
      lendablePercent: t.int32,
      borrowingLimitPercent: t.int32,
    }),
    exempt: t.struct('v1.ExemptPriorityLevelConfiguration', { nominalConcurrencyShares: t.int32, lendablePercent: t.int32 }),
  }),
  status: t.struct('v1.PriorityLevelConfigurationStatus', { conditions: conditions('v1.PriorityLevelConfigurationCondition') }),
});
