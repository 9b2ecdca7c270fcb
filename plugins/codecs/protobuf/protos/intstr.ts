/** k8s.io/apimachinery/pkg/util/intstr/generated.proto. */
export const intstrProto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.util.intstr;

message IntOrString {
  optional int64 type = 1;
  optional int32 intVal = 2;
  optional string strVal = 3;
}
`;
