/*
 * k8s.io/api/admissionregistration/v1/generated.proto: Validating- and MutatingAdmissionPolicy(Binding) and the
 * webhook configurations, fields in the Go structs' order (JSON key order).
 */
import { mutatingAdmissionPolicyMessages, policyMatchMessages } from './admissionregistration-policy-messages.js';

export const admissionregistrationV1Proto = `
syntax = "proto2";
package k8s.io.api.admissionregistration.v1;
${policyMatchMessages}${mutatingAdmissionPolicyMessages}
message AuditAnnotation {
  optional string key = 1;
  optional string valueExpression = 2;
}

message ExpressionWarning {
  optional string fieldRef = 2;
  optional string warning = 3;
}



message MutatingWebhook {
  optional string name = 1;
  optional WebhookClientConfig clientConfig = 2;
  repeated RuleWithOperations rules = 3;
  optional string failurePolicy = 4;
  optional string matchPolicy = 9;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 5;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector objectSelector = 11;
  optional string sideEffects = 6;
  optional int32 timeoutSeconds = 7;
  repeated string admissionReviewVersions = 8;
  optional string reinvocationPolicy = 10;
  repeated MatchCondition matchConditions = 12;
}

message MutatingWebhookConfiguration {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  repeated MutatingWebhook Webhooks = 2;
}

message MutatingWebhookConfigurationList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated MutatingWebhookConfiguration items = 2;
}




message Rule {
  repeated string apiGroups = 1;
  repeated string apiVersions = 2;
  repeated string resources = 3;
  optional string scope = 4;
}

message RuleWithOperations {
  repeated string operations = 1;
  optional Rule rule = 2;
}

message ServiceReference {
  optional string namespace = 1;
  optional string name = 2;
  optional string path = 3;
  optional int32 port = 4;
}

message TypeChecking {
  repeated ExpressionWarning expressionWarnings = 1;
}

message ValidatingAdmissionPolicy {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ValidatingAdmissionPolicySpec spec = 2;
  optional ValidatingAdmissionPolicyStatus status = 3;
}

message ValidatingAdmissionPolicyBinding {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ValidatingAdmissionPolicyBindingSpec spec = 2;
}

message ValidatingAdmissionPolicyBindingList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ValidatingAdmissionPolicyBinding items = 2;
}

message ValidatingAdmissionPolicyBindingSpec {
  optional string policyName = 1;
  optional ParamRef paramRef = 2;
  optional MatchResources matchResources = 3;
  repeated string validationActions = 4;
}

message ValidatingAdmissionPolicyList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ValidatingAdmissionPolicy items = 2;
}

message ValidatingAdmissionPolicySpec {
  optional ParamKind paramKind = 1;
  optional MatchResources matchConstraints = 2;
  repeated Validation validations = 3;
  optional string failurePolicy = 4;
  repeated AuditAnnotation auditAnnotations = 5;
  repeated MatchCondition matchConditions = 6;
  repeated Variable variables = 7;
}

message ValidatingAdmissionPolicyStatus {
  optional int64 observedGeneration = 1;
  optional TypeChecking typeChecking = 2;
  repeated .k8s.io.apimachinery.pkg.apis.meta.v1.Condition conditions = 3;
}

message ValidatingWebhook {
  optional string name = 1;
  optional WebhookClientConfig clientConfig = 2;
  repeated RuleWithOperations rules = 3;
  optional string failurePolicy = 4;
  optional string matchPolicy = 9;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 5;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector objectSelector = 10;
  optional string sideEffects = 6;
  optional int32 timeoutSeconds = 7;
  repeated string admissionReviewVersions = 8;
  repeated MatchCondition matchConditions = 11;
}

message ValidatingWebhookConfiguration {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  repeated ValidatingWebhook Webhooks = 2;
}

message ValidatingWebhookConfigurationList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ValidatingWebhookConfiguration items = 2;
}

message Validation {
  optional string Expression = 1;
  optional string message = 2;
  optional string reason = 3;
  optional string messageExpression = 4;
}


message WebhookClientConfig {
  optional string url = 3;
  optional ServiceReference service = 1;
  optional bytes caBundle = 2;
}
`;
