import { packages } from './schema.js';

/*
 * What the protobuf declarations do not say but the Go structs behind them do, and both of kube's encodings depend
 * on. A field not listed is a non-pointer with `omitempty`: Go's protobuf marshaller always writes it (its zero value
 * too) and encoding/json leaves its zero value out. Taken from the types.go files of k8s.io/apimachinery
 * (meta/v1), k8s.io/api (core/v1, authentication/v1, authorization/v1, coordination/v1, rbac/v1, events/v1, admissionregistration/v1, v1beta1,
 * v1alpha1), k8s.io/apiextensions-apiserver (apiextensions/v1) and k8s.io/kube-aggregator (apiregistration/v1).
 */
export interface GoFieldFacts {
  /** Pointer fields (`*T`): on the wire only when set, in JSON whenever set, their zero value included. */
  readonly pointers?: readonly string[];
  /** Fields without `omitempty`: always in JSON, a zero scalar as itself, an empty slice or map (or nil pointer) as null. */
  readonly required?: readonly string[];
  /** Embedded structs (`json:",inline"`): their fields sit in this object's JSON. */
  readonly inline?: readonly string[];
  /** JSON names that differ from the protobuf field names. */
  readonly jsonNames?: Readonly<Record<string, string>>;
}

const meta = (name: string) => `${packages.metaV1}.${name}`;
const core = (name: string) => `${packages.coreV1}.${name}`;
const authn = (name: string) => `${packages.authenticationV1}.${name}`;
const authz = (name: string) => `${packages.authorizationV1}.${name}`;
const ext = (name: string) => `${packages.apiextensionsV1}.${name}`;
const adm = (name: string) => `${packages.admissionregistrationV1}.${name}`;
const coordination = (name: string) => `${packages.coordinationV1}.${name}`;
const events = (name: string) => `${packages.eventsV1}.${name}`;
const rbac = (name: string) => `${packages.rbacV1}.${name}`;
const apireg = (name: string) => `${packages.apiregistrationV1}.${name}`;
const list: GoFieldFacts = { required: ['items'] };

/** The policy messages each admissionregistration version has (protos/admissionregistration-policy-messages.ts). */
function policyFacts(pkg: string): Record<string, GoFieldFacts> {
  const m = (name: string) => `${pkg}.${name}`;
  return {
    [m('MatchCondition')]: { required: ['name', 'expression'] },
    [m('MatchResources')]: { pointers: ['namespaceSelector', 'objectSelector', 'matchPolicy'] },
    [m('NamedRuleWithOperations')]: { inline: ['ruleWithOperations'] },
    [m('ParamRef')]: { pointers: ['selector', 'parameterNotFoundAction'] },
    [m('Variable')]: { required: ['Name', 'Expression'], jsonNames: { Name: 'name', Expression: 'expression' } },
    [m('MutatingAdmissionPolicyBindingList')]: list,
    [m('MutatingAdmissionPolicyBindingSpec')]: { pointers: ['paramRef', 'matchResources'] },
    [m('MutatingAdmissionPolicyList')]: list,
    [m('MutatingAdmissionPolicySpec')]: { pointers: ['paramKind', 'matchConstraints', 'failurePolicy'] },
    [m('Mutation')]: { required: ['patchType'], pointers: ['applyConfiguration', 'jsonPatch'] },
  };
}

const webhookFacts = (extraPointers: string[]): GoFieldFacts => ({
  required: ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'],
  pointers: ['failurePolicy', 'matchPolicy', 'namespaceSelector', 'objectSelector', 'sideEffects', 'timeoutSeconds', ...extraPointers],
});
const webhookClientConfig: GoFieldFacts = { pointers: ['url', 'service'] };
const serviceReference: GoFieldFacts = { required: ['namespace', 'name'], pointers: ['path', 'port'] };

/** core/v1 Service and Endpoints (k8s.io/api core/v1 types.go). */
const serviceFacts: Record<string, GoFieldFacts> = {
  [core('ClientIPConfig')]: { pointers: ['timeoutSeconds'] },
  [core('EndpointAddress')]: { required: ['ip'], pointers: ['nodeName', 'targetRef'] },
  [core('EndpointPort')]: { required: ['port'], pointers: ['appProtocol'] },
  [core('EndpointsList')]: list,
  [core('LoadBalancerIngress')]: { pointers: ['ipMode'] },
  [core('PortStatus')]: { required: ['port', 'protocol'], pointers: ['error'] },
  [core('ServiceList')]: list,
  [core('ServicePort')]: { required: ['port'], pointers: ['appProtocol'] },
  [core('ServiceSpec')]: {
    pointers: ['sessionAffinityConfig', 'ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution'],
  },
  [core('SessionAffinityConfig')]: { pointers: ['clientIP'] },
};

export const goFields: Readonly<Record<string, GoFieldFacts>> = {
  [meta('APIGroup')]: { required: ['name', 'versions'] },
  [meta('APIGroupList')]: { required: ['groups'] },
  [meta('APIResource')]: { required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'] },
  [meta('APIResourceList')]: { required: ['groupVersion', 'resources'] },
  [meta('APIVersions')]: { required: ['versions', 'serverAddressByClientCIDRs'] },
  [meta('Condition')]: { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] },
  [meta('DeleteOptions')]: {
    pointers: ['gracePeriodSeconds', 'preconditions', 'orphanDependents', 'propagationPolicy', 'ignoreStoreReadErrorWithClusterBreakingPotential'],
  },
  [meta('GroupVersionForDiscovery')]: { required: ['groupVersion', 'version'] },
  [meta('LabelSelectorRequirement')]: { required: ['key', 'operator'] },
  [meta('FieldSelectorRequirement')]: { required: ['key', 'operator'] },
  [meta('ListMeta')]: { pointers: ['remainingItemCount'] },
  [meta('ManagedFieldsEntry')]: { pointers: ['time', 'fieldsV1'] },
  [meta('ObjectMeta')]: { pointers: ['deletionTimestamp', 'deletionGracePeriodSeconds'] },
  [meta('OwnerReference')]: { required: ['apiVersion', 'kind', 'name', 'uid'], pointers: ['controller', 'blockOwnerDeletion'] },
  [meta('PartialObjectMetadataList')]: list,
  [`${packages.metaV1beta1}.PartialObjectMetadataList`]: list,
  [meta('Preconditions')]: { pointers: ['uid', 'resourceVersion'] },
  [meta('ServerAddressByClientCIDR')]: { required: ['clientCIDR', 'serverAddress'] },
  [meta('Status')]: { pointers: ['details'] },

  [core('ConfigMap')]: { pointers: ['immutable'] },
  [core('ConfigMapList')]: list,
  [core('NamespaceCondition')]: { required: ['type', 'status'] },
  [core('NamespaceList')]: list,
  [core('Secret')]: { pointers: ['immutable'] },
  [core('SecretList')]: list,
  [core('ServiceAccount')]: { pointers: ['automountServiceAccountToken'] },
  [core('ServiceAccountList')]: list,
  [authn('TokenRequest')]: { required: ['spec'] },
  [authn('TokenRequestSpec')]: { required: ['audiences', 'boundObjectRef'], pointers: ['expirationSeconds', 'boundObjectRef'] },
  [authn('TokenRequestStatus')]: { required: ['token', 'expirationTimestamp'] },
  [authn('TokenReview')]: { required: ['spec'] },
  [authn('TokenReviewStatus')]: { required: ['user'] },
  [authz('SubjectAccessReview')]: { required: ['spec'] },
  [authz('LocalSubjectAccessReview')]: { required: ['spec'] },
  [authz('SelfSubjectAccessReview')]: { required: ['spec'] },
  [authz('SubjectAccessReviewSpec')]: { pointers: ['resourceAttributes', 'nonResourceAttributes'] },
  [authz('SelfSubjectAccessReviewSpec')]: { pointers: ['resourceAttributes', 'nonResourceAttributes'] },
  [authz('ResourceAttributes')]: { pointers: ['fieldSelector', 'labelSelector'] },
  [authz('SubjectAccessReviewStatus')]: { required: ['allowed'] },
  [core('Event')]: { required: ['metadata', 'involvedObject', 'reportingComponent', 'reportingInstance'], pointers: ['series', 'related'] },
  [core('EventList')]: list,

  [coordination('LeaseSpec')]: {
    pointers: ['holderIdentity', 'leaseDurationSeconds', 'acquireTime', 'renewTime', 'leaseTransitions', 'strategy', 'preferredHolder'],
  },
  [coordination('LeaseList')]: list,

  [rbac('ClusterRole')]: { required: ['rules'], pointers: ['aggregationRule'] },
  [rbac('ClusterRoleBinding')]: { required: ['roleRef'] },
  [rbac('ClusterRoleBindingList')]: list,
  [rbac('ClusterRoleList')]: list,
  [rbac('PolicyRule')]: { required: ['verbs'] },
  [rbac('Role')]: { required: ['rules'] },
  [rbac('RoleBinding')]: { required: ['roleRef'] },
  [rbac('RoleBindingList')]: list,
  [rbac('RoleList')]: list,
  [rbac('RoleRef')]: { required: ['apiGroup', 'kind', 'name'] },
  [rbac('Subject')]: { required: ['kind', 'name'] },

  [authz('NonResourceRule')]: { required: ['verbs'] },
  [authz('ResourceRule')]: { required: ['verbs'] },
  [authz('SelfSubjectRulesReview')]: { required: ['spec'] },
  [authz('SubjectRulesReviewStatus')]: { required: ['resourceRules', 'nonResourceRules', 'incomplete'] },

  [events('Event')]: { required: ['eventTime'], pointers: ['series', 'related'] },
  [events('EventList')]: list,
  [events('EventSeries')]: { required: ['count', 'lastObservedTime'] },

  [ext('CustomResourceColumnDefinition')]: { required: ['name', 'type', 'jsonPath'] },
  [ext('CustomResourceConversion')]: { required: ['strategy'], pointers: ['webhook'] },
  [ext('CustomResourceDefinitionCondition')]: { required: ['type', 'status'] },
  [ext('CustomResourceDefinitionList')]: list,
  [ext('CustomResourceDefinitionNames')]: { required: ['plural', 'kind'] },
  [ext('CustomResourceDefinitionSpec')]: { required: ['group', 'names', 'scope', 'versions'], pointers: ['conversion'] },
  [ext('CustomResourceDefinitionStatus')]: { required: ['conditions', 'acceptedNames', 'storedVersions'] },
  [ext('CustomResourceDefinitionVersion')]: { required: ['name', 'served', 'storage'], pointers: ['deprecationWarning', 'schema', 'subresources'] },
  [ext('CustomResourceSubresourceScale')]: { required: ['specReplicasPath', 'statusReplicasPath'], pointers: ['labelSelectorPath'] },
  [ext('CustomResourceSubresources')]: { pointers: ['status', 'scale'] },
  [ext('CustomResourceValidation')]: { pointers: ['openAPIV3Schema'] },
  [ext('JSONSchemaProps')]: {
    pointers: [
      'ref', 'default', 'maximum', 'minimum', 'maxLength', 'minLength', 'maxItems', 'minItems', 'multipleOf', 'maxProperties',
      'minProperties', 'items', 'not', 'additionalProperties', 'additionalItems', 'externalDocs', 'example',
      'xKubernetesPreserveUnknownFields', 'xKubernetesListType', 'xKubernetesMapType',
    ],
    jsonNames: {
      schema: '$schema',
      ref: '$ref',
      xKubernetesPreserveUnknownFields: 'x-kubernetes-preserve-unknown-fields',
      xKubernetesEmbeddedResource: 'x-kubernetes-embedded-resource',
      xKubernetesIntOrString: 'x-kubernetes-int-or-string',
      xKubernetesListMapKeys: 'x-kubernetes-list-map-keys',
      xKubernetesListType: 'x-kubernetes-list-type',
      xKubernetesMapType: 'x-kubernetes-map-type',
      xKubernetesValidations: 'x-kubernetes-validations',
    },
  },
  [ext('SelectableField')]: { required: ['jsonPath'] },
  [ext('ServiceReference')]: serviceReference,
  [ext('ValidationRule')]: { required: ['rule'], pointers: ['reason', 'optionalOldSelf'] },
  [ext('WebhookClientConfig')]: webhookClientConfig,
  [ext('WebhookConversion')]: { required: ['conversionReviewVersions'], pointers: ['clientConfig'] },

  [adm('AuditAnnotation')]: { required: ['key', 'valueExpression'] },
  [adm('ExpressionWarning')]: { required: ['fieldRef', 'warning'] },
  [adm('MutatingWebhook')]: webhookFacts(['reinvocationPolicy']),
  [adm('MutatingWebhookConfiguration')]: { jsonNames: { Webhooks: 'webhooks' } },
  [adm('MutatingWebhookConfigurationList')]: list,
  [adm('Rule')]: { pointers: ['scope'] },
  [adm('RuleWithOperations')]: { inline: ['rule'] },
  [adm('ServiceReference')]: serviceReference,
  [adm('ValidatingAdmissionPolicyBindingList')]: list,
  [adm('ValidatingAdmissionPolicyBindingSpec')]: { pointers: ['paramRef', 'matchResources'] },
  [adm('ValidatingAdmissionPolicyList')]: list,
  [adm('ValidatingAdmissionPolicySpec')]: { pointers: ['paramKind', 'matchConstraints', 'failurePolicy'] },
  [adm('ValidatingAdmissionPolicyStatus')]: { pointers: ['typeChecking'] },
  [adm('ValidatingWebhook')]: webhookFacts([]),
  [adm('ValidatingWebhookConfiguration')]: { jsonNames: { Webhooks: 'webhooks' } },
  [adm('ValidatingWebhookConfigurationList')]: list,
  [adm('Validation')]: { required: ['Expression'], pointers: ['reason'], jsonNames: { Expression: 'expression' } },
  [adm('WebhookClientConfig')]: webhookClientConfig,
  ...policyFacts(packages.admissionregistrationV1),
  ...policyFacts(packages.admissionregistrationV1beta1),
  ...policyFacts(packages.admissionregistrationV1alpha1),
  ...serviceFacts,

  [apireg('APIServiceCondition')]: { required: ['type', 'status'] },
  [apireg('APIServiceList')]: list,
  [apireg('APIServiceSpec')]: { required: ['service', 'groupPriorityMinimum', 'versionPriority'], pointers: ['service'] },
  [apireg('ServiceReference')]: { pointers: ['port'] },
};
