import type { KubeObject } from '../../core/contracts/resource-type.js';

/** core/v1 ObjectReference, an Event's involvedObject (events.k8s.io: regarding) and related object. */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  lastObservedTime?: string | null;
}

/** A core/v1 Event, as stored (already decoded into its Go type: the values have their types). */
export interface CoreEvent extends KubeObject {
  involvedObject?: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

/** An events.k8s.io/v1 Event. */
export interface EventsV1Event extends KubeObject {
  eventTime?: string | null;
  series?: EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
}
