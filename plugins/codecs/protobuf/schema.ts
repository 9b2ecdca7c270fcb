import protobuf from 'protobufjs';

/*
 * The protobuf messages kapi reads and writes, with Kubernetes' own package names and field numbers, taken from
 *   k8s.io/apimachinery/pkg/runtime/generated.proto          (Unknown, TypeMeta)
 *   k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto     (ObjectMeta, Time, OwnerReference, ManagedFieldsEntry,
 *                                                             FieldsV1, DeleteOptions, Preconditions)
 *   k8s.io/api/core/v1/generated.proto                       (Namespace, NamespaceSpec, NamespaceStatus,
 *                                                             NamespaceCondition)
 * Only the messages kapi serves are declared. Fields are listed in field-number order, the order Go's generated
 * marshallers write them. The texts are parsed once at module load: no file reads, no code generation step.
 */

const runtimeProto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.runtime;

message TypeMeta {
  optional string apiVersion = 1;
  optional string kind = 2;
}

message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}
`;

const metaV1Proto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;

message Time {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}

message FieldsV1 {
  optional bytes Raw = 1;
}

message OwnerReference {
  optional string kind = 1;
  optional string name = 3;
  optional string uid = 4;
  optional string apiVersion = 5;
  optional bool controller = 6;
  optional bool blockOwnerDeletion = 7;
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

message Preconditions {
  optional string uid = 1;
  optional string resourceVersion = 2;
}

message DeleteOptions {
  optional int64 gracePeriodSeconds = 1;
  optional Preconditions preconditions = 2;
  optional bool orphanDependents = 3;
  optional string propagationPolicy = 4;
  repeated string dryRun = 5;
  optional bool ignoreStoreReadErrorWithClusterBreakingPotential = 6;
}
`;

const coreV1Proto = `
syntax = "proto2";
package k8s.io.api.core.v1;

message Namespace {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional NamespaceSpec spec = 2;
  optional NamespaceStatus status = 3;
}

message NamespaceSpec {
  repeated string finalizers = 1;
}

message NamespaceStatus {
  optional string phase = 1;
  repeated NamespaceCondition conditions = 2;
}

message NamespaceCondition {
  optional string type = 1;
  optional string status = 2;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}
`;

function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  for (const text of [runtimeProto, metaV1Proto, coreV1Proto]) protobuf.parse(text, root, { keepCase: true });
  root.resolveAll();
  return root;
}

/** The parsed and resolved message definitions. */
export const kubeProtoRoot: protobuf.Root = buildRoot();

const type = (name: string): protobuf.Type => kubeProtoRoot.lookupType(name);

/** The message types by their Go names. */
export const KubeTypes = {
  Unknown: type('k8s.io.apimachinery.pkg.runtime.Unknown'),
  TypeMeta: type('k8s.io.apimachinery.pkg.runtime.TypeMeta'),
  Time: type('k8s.io.apimachinery.pkg.apis.meta.v1.Time'),
  FieldsV1: type('k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1'),
  OwnerReference: type('k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference'),
  ManagedFieldsEntry: type('k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'),
  ObjectMeta: type('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
  Preconditions: type('k8s.io.apimachinery.pkg.apis.meta.v1.Preconditions'),
  DeleteOptions: type('k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions'),
  Namespace: type('k8s.io.api.core.v1.Namespace'),
  NamespaceSpec: type('k8s.io.api.core.v1.NamespaceSpec'),
  NamespaceStatus: type('k8s.io.api.core.v1.NamespaceStatus'),
  NamespaceCondition: type('k8s.io.api.core.v1.NamespaceCondition'),
} as const;
