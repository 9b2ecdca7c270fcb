/** k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/generated.proto: APIService. */
export const apiregistrationV1Proto = `
syntax = "proto2";
package k8s.io.kube_aggregator.pkg.apis.apiregistration.v1;

message APIService {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional APIServiceSpec spec = 2;
  optional APIServiceStatus status = 3;
}

message APIServiceCondition {
  optional string type = 1;
  optional string status = 2;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3;
  optional string reason = 4;
  optional string message = 5;
}

message APIServiceList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated APIService items = 2;
}

message APIServiceSpec {
  optional ServiceReference service = 1;
  optional string group = 2;
  optional string version = 3;
  optional bool insecureSkipTLSVerify = 4;
  optional bytes caBundle = 5;
  optional int32 groupPriorityMinimum = 7;
  optional int32 versionPriority = 8;
}

message APIServiceStatus {
  repeated APIServiceCondition conditions = 1;
}

message ServiceReference {
  optional string namespace = 1;
  optional string name = 2;
  optional int32 port = 3;
}
`;
