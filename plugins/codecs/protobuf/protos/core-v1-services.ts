/** k8s.io/api/core/v1/generated.proto: Service, Endpoints and the messages they use (ObjectReference is core-v1.ts's). */
export const coreV1ServicesProto = `
syntax = "proto2";
package k8s.io.api.core.v1;

message ClientIPConfig {
  optional int32 timeoutSeconds = 1;
}

message EndpointAddress {
  optional string ip = 1;
  optional string hostname = 3;
  optional string nodeName = 4;
  optional ObjectReference targetRef = 2;
}

message EndpointPort {
  optional string name = 1;
  optional int32 port = 2;
  optional string protocol = 3;
  optional string appProtocol = 4;
}

message EndpointSubset {
  repeated EndpointAddress addresses = 1;
  repeated EndpointAddress notReadyAddresses = 2;
  repeated EndpointPort ports = 3;
}

message Endpoints {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  repeated EndpointSubset subsets = 2;
}

message EndpointsList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Endpoints items = 2;
}

message LoadBalancerIngress {
  optional string ip = 1;
  optional string hostname = 2;
  optional string ipMode = 3;
  repeated PortStatus ports = 4;
}

message LoadBalancerStatus {
  repeated LoadBalancerIngress ingress = 1;
}

message PortStatus {
  optional int32 port = 1;
  optional string protocol = 2;
  optional string error = 3;
}

message Service {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ServiceSpec spec = 2;
  optional ServiceStatus status = 3;
}

message ServiceList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Service items = 2;
}

message ServicePort {
  optional string name = 1;
  optional string protocol = 2;
  optional string appProtocol = 6;
  optional int32 port = 3;
  optional .k8s.io.apimachinery.pkg.util.intstr.IntOrString targetPort = 4;
  optional int32 nodePort = 5;
}

message ServiceSpec {
  repeated ServicePort ports = 1;
  map<string, string> selector = 2;
  optional string clusterIP = 3;
  repeated string clusterIPs = 18;
  optional string type = 4;
  repeated string externalIPs = 5;
  optional string sessionAffinity = 7;
  optional string loadBalancerIP = 8;
  repeated string loadBalancerSourceRanges = 9;
  optional string externalName = 10;
  optional string externalTrafficPolicy = 11;
  optional int32 healthCheckNodePort = 12;
  optional bool publishNotReadyAddresses = 13;
  optional SessionAffinityConfig sessionAffinityConfig = 14;
  repeated string ipFamilies = 19;
  optional string ipFamilyPolicy = 17;
  optional bool allocateLoadBalancerNodePorts = 20;
  optional string loadBalancerClass = 21;
  optional string internalTrafficPolicy = 22;
  optional string trafficDistribution = 23;
}

message ServiceStatus {
  optional LoadBalancerStatus loadBalancer = 1;
  repeated .k8s.io.apimachinery.pkg.apis.meta.v1.Condition conditions = 2;
}

message SessionAffinityConfig {
  optional ClientIPConfig clientIP = 1;
}
`;
