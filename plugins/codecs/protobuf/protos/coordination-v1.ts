/** k8s.io/api/coordination/v1/generated.proto: Lease. */
export const coordinationV1Proto = `
syntax = "proto2";
package k8s.io.api.coordination.v1;

message Lease {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional LeaseSpec spec = 2;
}

message LeaseList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Lease items = 2;
}

message LeaseSpec {
  optional string holderIdentity = 1;
  optional int32 leaseDurationSeconds = 2;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime acquireTime = 3;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime renewTime = 4;
  optional int32 leaseTransitions = 5;
  optional string strategy = 6;
  optional string preferredHolder = 7;
}
`;
