// Events between core/v1 (the stored form) and events.k8s.io/v1, field by field as kube's conversion functions.
import test from 'ava';
import { coreToEventsV1, eventConverter, eventsV1ToCore } from '../../../../builtin/events/event-conversion.js';

const metadata = { name: 'e', namespace: 'ns', uid: 'u', resourceVersion: '7' };

const v1 = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata,
  eventTime: '2026-01-01T00:00:00.000001Z',
  series: { count: 2, lastObservedTime: '2026-01-01T00:00:02.000000Z' },
  reportingController: 'example.com/c',
  reportingInstance: 'c-0',
  action: 'Act',
  reason: 'Why',
  regarding: { kind: 'Pod', namespace: 'ns', name: 'p' },
  related: { kind: 'Node', name: 'n' },
  note: 'hello',
  type: 'Warning',
  deprecatedSource: { component: 'old', host: 'h' },
  deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
  deprecatedLastTimestamp: '2026-01-01T00:00:01Z',
  deprecatedCount: 3,
};

const core = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata,
  eventTime: '2026-01-01T00:00:00.000001Z',
  series: { count: 2, lastObservedTime: '2026-01-01T00:00:02.000000Z' },
  reportingComponent: 'example.com/c',
  reportingInstance: 'c-0',
  action: 'Act',
  reason: 'Why',
  involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p' },
  related: { kind: 'Node', name: 'n' },
  message: 'hello',
  type: 'Warning',
  source: { component: 'old', host: 'h' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:00:01Z',
  count: 3,
};

test('every field has its counterpart, both ways', (t) => {
  t.deepEqual(eventsV1ToCore(v1), core);
  t.deepEqual(coreToEventsV1(core), v1);
});

test("unset fields come out as Go's encoder writes them: the always-written ones, and nothing for omitempty zeros", (t) => {
  t.deepEqual(eventsV1ToCore({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata, note: '', deprecatedCount: 0 }), {
    apiVersion: 'v1',
    kind: 'Event',
    metadata,
    involvedObject: {},
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  });
  t.deepEqual(coreToEventsV1({ apiVersion: 'v1', kind: 'Event', metadata, reportingComponent: '', count: 0 }), {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata,
    eventTime: null,
    regarding: {},
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  });
});

test('the converter copies: its input (a shared watch-cache object) is never changed', (t) => {
  const input = structuredClone(core);
  const out = eventConverter.convertObject(input, 'events.k8s.io/v1') as typeof v1;
  out.regarding.name = 'changed';
  out.metadata.name = 'changed';
  t.deepEqual(input, core);
  t.deepEqual(eventConverter.convertList([input], 'v1'), [core]);
});
