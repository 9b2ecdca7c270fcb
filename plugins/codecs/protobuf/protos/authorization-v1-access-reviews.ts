/**
 * k8s.io/api/authorization/v1/generated.proto: the access reviews (SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview) and the messages they use.
 */
export const authorizationV1AccessReviewsProto = `
syntax = "proto2";
package k8s.io.api.authorization.v1;

message ExtraValue {
  repeated string items = 1;
}

message FieldSelectorAttributes {
  optional string rawSelector = 1;
  repeated .k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement requirements = 2;
}

message LabelSelectorAttributes {
  optional string rawSelector = 1;
  repeated .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement requirements = 2;
}

message LocalSubjectAccessReview {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional SubjectAccessReviewSpec spec = 2;
  optional SubjectAccessReviewStatus status = 3;
}

message NonResourceAttributes {
  optional string path = 1;
  optional string verb = 2;
}

message ResourceAttributes {
  optional string namespace = 1;
  optional string verb = 2;
  optional string group = 3;
  optional string version = 4;
  optional string resource = 5;
  optional string subresource = 6;
  optional string name = 7;
  optional FieldSelectorAttributes fieldSelector = 8;
  optional LabelSelectorAttributes labelSelector = 9;
}

message SelfSubjectAccessReview {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional SelfSubjectAccessReviewSpec spec = 2;
  optional SubjectAccessReviewStatus status = 3;
}

message SelfSubjectAccessReviewSpec {
  optional ResourceAttributes resourceAttributes = 1;
  optional NonResourceAttributes nonResourceAttributes = 2;
}

message SubjectAccessReview {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional SubjectAccessReviewSpec spec = 2;
  optional SubjectAccessReviewStatus status = 3;
}

message SubjectAccessReviewSpec {
  optional ResourceAttributes resourceAttributes = 1;
  optional NonResourceAttributes nonResourceAttributes = 2;
  optional string user = 3;
  repeated string groups = 4;
  map<string, ExtraValue> extra = 5;
  optional string uid = 6;
}

message SubjectAccessReviewStatus {
  optional bool allowed = 1;
  optional bool denied = 4;
  optional string reason = 2;
  optional string evaluationError = 3;
}
`;
