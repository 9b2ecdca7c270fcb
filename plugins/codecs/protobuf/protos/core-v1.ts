/** k8s.io/api/core/v1/generated.proto: the core kinds kapi serves (Namespace, ConfigMap, Secret, ServiceAccount, Event) and the types they use. */
export const coreV1Proto = `
syntax = "proto2";
package k8s.io.api.core.v1;

message ConfigMap {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional bool immutable = 4;
  map<string, string> data = 2;
  map<string, bytes> binaryData = 3;
}

message ConfigMapList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ConfigMap items = 2;
}

message Namespace {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional NamespaceSpec spec = 2;
  optional NamespaceStatus status = 3;
}

message NamespaceCondition {
  optional string type = 1;
  optional string status = 2;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}

message NamespaceList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Namespace items = 2;
}

message NamespaceSpec {
  repeated string finalizers = 1;
}

message NamespaceStatus {
  optional string phase = 1;
  repeated NamespaceCondition conditions = 2;
}

message Event {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ObjectReference involvedObject = 2;
  optional string reason = 3;
  optional string message = 4;
  optional EventSource source = 5;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time firstTimestamp = 6;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTimestamp = 7;
  optional int32 count = 8;
  optional string type = 9;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime eventTime = 10;
  optional EventSeries series = 11;
  optional string action = 12;
  optional ObjectReference related = 13;
  optional string reportingComponent = 14;
  optional string reportingInstance = 15;
}

message EventList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Event items = 2;
}

message EventSeries {
  optional int32 count = 1;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime lastObservedTime = 2;
}

message EventSource {
  optional string component = 1;
  optional string host = 2;
}

message Secret {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional bool immutable = 5;
  map<string, bytes> data = 2;
  map<string, string> stringData = 4;
  optional string type = 3;
}

message SecretList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Secret items = 2;
}

message LocalObjectReference {
  optional string name = 1;
}

message ObjectReference {
  optional string kind = 1;
  optional string namespace = 2;
  optional string name = 3;
  optional string uid = 4;
  optional string apiVersion = 5;
  optional string resourceVersion = 6;
  optional string fieldPath = 7;
}

message ServiceAccount {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  repeated ObjectReference secrets = 2;
  repeated LocalObjectReference imagePullSecrets = 3;
  optional bool automountServiceAccountToken = 4;
}

message ServiceAccountList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ServiceAccount items = 2;
}
`;
