/** k8s.io/apimachinery/pkg/runtime/generated.proto: the envelope of every payload and raw embedded objects. */
export const runtimeProto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.runtime;

message RawExtension {
  optional bytes raw = 1;
}

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
