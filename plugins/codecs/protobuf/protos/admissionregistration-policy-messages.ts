/*
 * The messages of admissionregistration/{v1,v1beta1,v1alpha1}/generated.proto that admission policies use, the same
 * in each package: kube's field numbers, fields in the Go structs' order (JSON key order). NamedRuleWithOperations
 * embeds v1's RuleWithOperations in every version (a Go type alias there).
 */

/** MatchCondition, MatchResources, NamedRuleWithOperations, ParamKind, ParamRef and Variable. */
export const policyMatchMessages = `
message MatchCondition {
  optional string name = 1;
  optional string expression = 2;
}

message MatchResources {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 1;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector objectSelector = 2;
  repeated NamedRuleWithOperations resourceRules = 3;
  repeated NamedRuleWithOperations excludeResourceRules = 4;
  optional string matchPolicy = 7;
}

message NamedRuleWithOperations {
  repeated string resourceNames = 1;
  optional .k8s.io.api.admissionregistration.v1.RuleWithOperations ruleWithOperations = 2;
}

message ParamKind {
  optional string apiVersion = 1;
  optional string kind = 2;
}

message ParamRef {
  optional string name = 1;
  optional string namespace = 2;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 3;
  optional string parameterNotFoundAction = 4;
}

message Variable {
  optional string Name = 1;
  optional string Expression = 2;
}
`;

/** MutatingAdmissionPolicy, its binding, their lists and what they hold. */
export const mutatingAdmissionPolicyMessages = `
message ApplyConfiguration {
  optional string expression = 1;
}

message JSONPatch {
  optional string expression = 1;
}

message MutatingAdmissionPolicy {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional MutatingAdmissionPolicySpec spec = 2;
}

message MutatingAdmissionPolicyBinding {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional MutatingAdmissionPolicyBindingSpec spec = 2;
}

message MutatingAdmissionPolicyBindingList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated MutatingAdmissionPolicyBinding items = 2;
}

message MutatingAdmissionPolicyBindingSpec {
  optional string policyName = 1;
  optional ParamRef paramRef = 2;
  optional MatchResources matchResources = 3;
}

message MutatingAdmissionPolicyList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated MutatingAdmissionPolicy items = 2;
}

message MutatingAdmissionPolicySpec {
  optional ParamKind paramKind = 1;
  optional MatchResources matchConstraints = 2;
  repeated Variable variables = 3;
  repeated Mutation mutations = 4;
  optional string failurePolicy = 5;
  repeated MatchCondition matchConditions = 6;
  optional string reinvocationPolicy = 7;
}

message Mutation {
  optional string patchType = 2;
  optional ApplyConfiguration applyConfiguration = 3;
  optional JSONPatch jsonPatch = 4;
}
`;

/** The messages kapi reads and writes in admissionregistration/v1beta1 or v1alpha1: the mutating policy kinds. */
export const admissionregistrationMutatingPolicyProto = (version: 'v1beta1' | 'v1alpha1') => `
syntax = "proto2";
package k8s.io.api.admissionregistration.${version};
${policyMatchMessages}${mutatingAdmissionPolicyMessages}`;
