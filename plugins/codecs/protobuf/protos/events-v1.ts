/** k8s.io/api/events/v1/generated.proto: Event (its references and source are core/v1's). */
export const eventsV1Proto = `
syntax = "proto2";
package k8s.io.api.events.v1;

message Event {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime eventTime = 2;
  optional EventSeries series = 3;
  optional string reportingController = 4;
  optional string reportingInstance = 5;
  optional string action = 6;
  optional string reason = 7;
  optional .k8s.io.api.core.v1.ObjectReference regarding = 8;
  optional .k8s.io.api.core.v1.ObjectReference related = 9;
  optional string note = 10;
  optional string type = 11;
  optional .k8s.io.api.core.v1.EventSource deprecatedSource = 12;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time deprecatedFirstTimestamp = 13;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time deprecatedLastTimestamp = 14;
  optional int32 deprecatedCount = 15;
}

message EventList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Event items = 2;
}

message EventSeries {
  optional int32 count = 1;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime lastObservedTime = 2;
}
`;
