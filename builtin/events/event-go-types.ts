import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { goMicroTime, goTime, kindGoType } from '../../schemas/object-meta-go-type.js';
import { objectReferenceGoType } from '../core-v1/object-reference-go-type.js';


const eventSource = t.struct('v1.EventSource', { component: t.string(), host: t.string() });

const eventSeries = (name: string) => t.struct(name, { count: t.int32, lastObservedTime: goMicroTime });

/** core/v1 Event as kube's decoder sees it. */
export const coreEventGoType: GoStructType = kindGoType('v1.Event', {
  involvedObject: objectReferenceGoType,
  reason: t.string(),
  message: t.string(),
  source: eventSource,
  firstTimestamp: goTime,
  lastTimestamp: goTime,
  count: t.int32,
  type: t.string(),
  eventTime: goMicroTime,
  series: eventSeries('v1.EventSeries'),
  action: t.string(),
  related: objectReferenceGoType,
  reportingComponent: t.string(),
  reportingInstance: t.string(),
});

/** events.k8s.io/v1 Event as kube's decoder sees it. */
export const eventsV1EventGoType: GoStructType = kindGoType('v1.Event', {
  eventTime: goMicroTime,
  series: eventSeries('v1.EventSeries'),
  reportingController: t.string(),
  reportingInstance: t.string(),
  action: t.string(),
  reason: t.string(),
  regarding: objectReferenceGoType,
  related: objectReferenceGoType,
  note: t.string(),
  type: t.string(),
  deprecatedSource: eventSource,
  deprecatedFirstTimestamp: goTime,
  deprecatedLastTimestamp: goTime,
  deprecatedCount: t.int32,
});
