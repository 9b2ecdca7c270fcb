/** k8s.io/api/authentication/v1/generated.proto: TokenRequest (the serviceaccounts/token subresource's kind). */
export const authenticationV1Proto = `
syntax = "proto2";
package k8s.io.api.authentication.v1;

message BoundObjectReference {
  optional string kind = 1;
  optional string apiVersion = 2;
  optional string name = 3;
  optional string uid = 4;
}

message TokenRequest {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional TokenRequestSpec spec = 2;
  optional TokenRequestStatus status = 3;
}

message TokenRequestSpec {
  repeated string audiences = 1;
  optional int64 expirationSeconds = 4;
  optional BoundObjectReference boundObjectRef = 3;
}

message TokenRequestStatus {
  optional string token = 1;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time expirationTimestamp = 2;
}
`;
