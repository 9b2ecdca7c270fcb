/*
 * k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto and meta/v1beta1 (its own PartialObjectMetadataList), the
 * messages kapi reads and writes. Fields are listed in the Go structs' order, as kube's generated.proto lists them:
 * that is the order encoding/json writes keys in (the wire order is by field number either way). Table and its
 * rows have no protobuf form in Kubernetes (`+protobuf=false`), so they are not here.
 */
export const metaV1Proto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;

message APIGroup {
  optional string name = 1;
  repeated GroupVersionForDiscovery versions = 2;
  optional GroupVersionForDiscovery preferredVersion = 3;
  repeated ServerAddressByClientCIDR serverAddressByClientCIDRs = 4;
}

message APIGroupList {
  repeated APIGroup groups = 1;
}

message APIResource {
  optional string name = 1;
  optional string singularName = 6;
  optional bool namespaced = 2;
  optional string group = 8;
  optional string version = 9;
  optional string kind = 3;
  optional Verbs verbs = 4;
  repeated string shortNames = 5;
  repeated string categories = 7;
  optional string storageVersionHash = 10;
}

message APIResourceList {
  optional string groupVersion = 1;
  repeated APIResource resources = 2;
}

message APIVersions {
  repeated string versions = 1;
  repeated ServerAddressByClientCIDR serverAddressByClientCIDRs = 2;
}

message Condition {
  optional string type = 1;
  optional string status = 2;
  optional int64 observedGeneration = 3;
  optional Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}

message DeleteOptions {
  optional int64 gracePeriodSeconds = 1;
  optional Preconditions preconditions = 2;
  optional bool orphanDependents = 3;
  optional string propagationPolicy = 4;
  repeated string dryRun = 5;
  optional bool ignoreStoreReadErrorWithClusterBreakingPotential = 6;
}

message Duration {
  optional int64 duration = 1;
}

message FieldsV1 {
  optional bytes Raw = 1;
}

message GroupVersionForDiscovery {
  optional string groupVersion = 1;
  optional string version = 2;
}

message FieldSelectorRequirement {
  optional string key = 1;
  optional string operator = 2;
  repeated string values = 3;
}

message LabelSelector {
  map<string, string> matchLabels = 1;
  repeated LabelSelectorRequirement matchExpressions = 2;
}

message LabelSelectorRequirement {
  optional string key = 1;
  optional string operator = 2;
  repeated string values = 3;
}

message ListMeta {
  optional string selfLink = 1;
  optional string resourceVersion = 2;
  optional string continue = 3;
  optional int64 remainingItemCount = 4;
}

message ManagedFieldsEntry {
  optional string manager = 1;
  optional string operation = 2;
  optional string apiVersion = 3;
  optional Time time = 4;
  optional string fieldsType = 6;
  optional FieldsV1 fieldsV1 = 7;
  optional string subresource = 8;
}

message MicroTime {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}

message ObjectMeta {
  optional string name = 1;
  optional string generateName = 2;
  optional string namespace = 3;
  optional string selfLink = 4;
  optional string uid = 5;
  optional string resourceVersion = 6;
  optional int64 generation = 7;
  optional Time creationTimestamp = 8;
  optional Time deletionTimestamp = 9;
  optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11;
  map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13;
  repeated string finalizers = 14;
  repeated ManagedFieldsEntry managedFields = 17;
}

message OwnerReference {
  optional string apiVersion = 5;
  optional string kind = 1;
  optional string name = 3;
  optional string uid = 4;
  optional bool controller = 6;
  optional bool blockOwnerDeletion = 7;
}

message PartialObjectMetadata {
  optional ObjectMeta metadata = 1;
}

message PartialObjectMetadataList {
  optional ListMeta metadata = 1;
  repeated PartialObjectMetadata items = 2;
}

message Preconditions {
  optional string uid = 1;
  optional string resourceVersion = 2;
}

message ServerAddressByClientCIDR {
  optional string clientCIDR = 1;
  optional string serverAddress = 2;
}

message Status {
  optional ListMeta metadata = 1;
  optional string status = 2;
  optional string message = 3;
  optional string reason = 4;
  optional StatusDetails details = 5;
  optional int32 code = 6;
}

message StatusCause {
  optional string reason = 1;
  optional string message = 2;
  optional string field = 3;
}

message StatusDetails {
  optional string name = 1;
  optional string group = 2;
  optional string kind = 3;
  optional string uid = 6;
  repeated StatusCause causes = 4;
  optional int32 retryAfterSeconds = 5;
}

message Time {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}

message Verbs {
  repeated string items = 1;
}

message WatchEvent {
  optional string type = 1;
  optional .k8s.io.apimachinery.pkg.runtime.RawExtension object = 2;
}
`;

/** k8s.io/apimachinery/pkg/apis/meta/v1beta1/generated.proto: its list numbers its fields the other way round. */
export const metaV1beta1Proto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1beta1;

message PartialObjectMetadataList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 2;
  repeated .k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata items = 1;
}
`;
