/** k8s.io/api/flowcontrol/v1/generated.proto: FlowSchema, PriorityLevelConfiguration (kube's field numbers). */
export const flowcontrolV1Proto = `
syntax = "proto2";
package k8s.io.api.flowcontrol.v1;

message FlowSchema {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional FlowSchemaSpec spec = 2;
  optional FlowSchemaStatus status = 3;
}

message FlowSchemaList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated FlowSchema items = 2;
}

message FlowSchemaSpec {
  optional PriorityLevelConfigurationReference priorityLevelConfiguration = 1;
  optional int32 matchingPrecedence = 2;
  optional FlowDistinguisherMethod distinguisherMethod = 3;
  repeated PolicyRulesWithSubjects rules = 4;
}

message FlowSchemaStatus {
  repeated FlowSchemaCondition conditions = 1;
}

message FlowSchemaCondition {
  optional string type = 1;
  optional string status = 2;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3;
  optional string reason = 4;
  optional string message = 5;
}

message FlowDistinguisherMethod {
  optional string type = 1;
}

message PriorityLevelConfigurationReference {
  optional string name = 1;
}

message PolicyRulesWithSubjects {
  repeated Subject subjects = 1;
  repeated ResourcePolicyRule resourceRules = 2;
  repeated NonResourcePolicyRule nonResourceRules = 3;
}

message Subject {
  optional string kind = 1;
  optional UserSubject user = 2;
  optional GroupSubject group = 3;
  optional ServiceAccountSubject serviceAccount = 4;
}

message UserSubject {
  optional string name = 1;
}

message GroupSubject {
  optional string name = 1;
}

message ServiceAccountSubject {
  optional string namespace = 1;
  optional string name = 2;
}

message ResourcePolicyRule {
  repeated string verbs = 1;
  repeated string apiGroups = 2;
  repeated string resources = 3;
  optional bool clusterScope = 4;
  repeated string namespaces = 5;
}

message NonResourcePolicyRule {
  repeated string verbs = 1;
  repeated string nonResourceURLs = 6;
}

message PriorityLevelConfiguration {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional PriorityLevelConfigurationSpec spec = 2;
  optional PriorityLevelConfigurationStatus status = 3;
}

message PriorityLevelConfigurationList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated PriorityLevelConfiguration items = 2;
}

message PriorityLevelConfigurationSpec {
  optional string type = 1;
  optional LimitedPriorityLevelConfiguration limited = 2;
  optional ExemptPriorityLevelConfiguration exempt = 3;
}

message LimitedPriorityLevelConfiguration {
  optional int32 nominalConcurrencyShares = 1;
  optional LimitResponse limitResponse = 2;
  optional int32 lendablePercent = 3;
  optional int32 borrowingLimitPercent = 4;
}

message ExemptPriorityLevelConfiguration {
  optional int32 nominalConcurrencyShares = 1;
  optional int32 lendablePercent = 2;
}

message LimitResponse {
  optional string type = 1;
  optional QueuingConfiguration queuing = 2;
}

message QueuingConfiguration {
  optional int32 queues = 1;
  optional int32 handSize = 2;
  optional int32 queueLengthLimit = 3;
}

message PriorityLevelConfigurationStatus {
  repeated PriorityLevelConfigurationCondition conditions = 1;
}

message PriorityLevelConfigurationCondition {
  optional string type = 1;
  optional string status = 2;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3;
  optional string reason = 4;
  optional string message = 5;
}
`;
