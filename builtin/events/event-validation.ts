import { isDeepStrictEqual } from 'node:util';
import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../lib/k8s/names.js';
import { isZeroTime, parseRFC3339 } from '../../lib/go/timestamp.js';
import type { CoreEvent } from './event-types.js';

/*
 * kube's ValidateEventCreate / ValidateEventUpdate, on the Event in its core/v1 form (kube validates the internal
 * type, so the fields are named as core/v1 names them, whichever group the write came through). Writes through
 * core/v1 get the legacy checks only; writes through events.k8s.io/v1 the strict ones too.
 */

const reportingInstanceLengthLimit = 128;
const actionLengthLimit = 128;
const reasonLengthLimit = 128;
const noteLengthLimit = 1024;

/** Whether a metav1.Time/MicroTime value is Go's zero time (unset). */
function isUnset(time: string | null | undefined): boolean {
  if (!time) return true;
  const t = parseRFC3339(time);
  return t !== undefined && isZeroTime(t);
}

/** The length kube's len() counts: UTF-8 bytes. */
const byteLength = (s: string | undefined) => Buffer.byteLength(s ?? '', 'utf8');

function legacyCauses(e: CoreEvent): StatusCause[] {
  const causes: StatusCause[] = [];
  const namespace = e.metadata?.namespace ?? '';
  const involvedNamespace = e.involvedObject?.namespace ?? '';
  const namespaceMismatch = () => fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (isUnset(e.eventTime)) {
    // An old-style Event: its namespace is its object's ("default" or none for cluster-scoped objects).
    if (!involvedNamespace ? namespace !== '' && namespace !== 'default' : namespace !== involvedNamespace) causes.push(namespaceMismatch());
  } else {
    if (!involvedNamespace && namespace !== 'default' && namespace !== 'kube-system') causes.push(namespaceMismatch());
    const controller = e.reportingComponent ?? '';
    if (!controller) causes.push(fieldErrors.required('reportingController'));
    for (const msg of isQualifiedName(controller)) causes.push(fieldErrors.invalid('reportingController', controller, msg));
    causes.push(...presentAndShort('reportingInstance', e.reportingInstance, reportingInstanceLengthLimit));
    causes.push(...presentAndShort('action', e.action, actionLengthLimit));
    causes.push(...presentAndShort('reason', e.reason, reasonLengthLimit));
    if (byteLength(e.message) > noteLengthLimit) causes.push(fieldErrors.invalid('message', '', `can have at most ${noteLengthLimit} characters`));
  }
  for (const msg of isDNS1123Subdomain(namespace)) causes.push(fieldErrors.invalid('namespace', namespace, msg));
  return causes;
}

function presentAndShort(field: string, value: string | undefined, limit: number): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!value) causes.push(fieldErrors.required(field));
  if (byteLength(value) > limit) causes.push(fieldErrors.invalid(field, '', `can have at most ${limit} characters`));
  return causes;
}

function seriesCauses(e: CoreEvent): StatusCause[] {
  if (!e.series) return [];
  const causes: StatusCause[] = [];
  if ((e.series.count ?? 0) < 2) causes.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
  if (isUnset(e.series.lastObservedTime)) causes.push(fieldErrors.required('series.lastObservedTime'));
  return causes;
}

/** ValidateEventCreate; `strict` for writes through events.k8s.io/v1. */
export function validateEventCreate(e: CoreEvent, strict: boolean): StatusCause[] {
  const causes = legacyCauses(e);
  if (!strict) return causes;
  causes.push(...seriesCauses(e));
  if (isUnset(e.eventTime)) causes.push(fieldErrors.required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning') causes.push(fieldErrors.invalid('type', '', `has invalid value: ${e.type ?? ''}`));
  if (!isUnset(e.firstTimestamp)) causes.push(fieldErrors.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isUnset(e.lastTimestamp)) causes.push(fieldErrors.invalid('lastTimestamp', '', 'needs to be unset'));
  if (e.count) causes.push(fieldErrors.invalid('count', '', 'needs to be unset'));
  if (e.source?.component || e.source?.host) causes.push(fieldErrors.invalid('source', '', 'needs to be unset'));
  return causes;
}

/**
 * The core/v1 fields an update through events.k8s.io/v1 may not change, in kube's order (it checks `reason` twice), by
 * their internal names: `reportingComponent` is reported as `reportingController`.
 */
const immutableFields: [keyof CoreEvent, string][] = [
  ['involvedObject', 'involvedObject'],
  ['reason', 'reason'],
  ['message', 'message'],
  ['source', 'source'],
  ['firstTimestamp', 'firstTimestamp'],
  ['lastTimestamp', 'lastTimestamp'],
  ['count', 'count'],
  ['reason', 'reason'],
  ['type', 'type'],
  ['eventTime', 'eventTime'],
  ['action', 'action'],
  ['related', 'related'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

/** ValidateEventUpdate; `strict` for writes through events.k8s.io/v1. */
export function validateEventUpdate(e: CoreEvent, old: CoreEvent, strict: boolean): StatusCause[] {
  const causes = legacyCauses(e);
  if (!strict) return causes;
  if (!isDeepStrictEqual(e.series, old.series)) causes.push(...seriesCauses(e));
  for (const [key, field] of immutableFields) {
    if (!isDeepStrictEqual(e[key] ?? null, old[key] ?? null)) causes.push(fieldErrors.invalid(field, e[key] ?? '', 'field is immutable'));
  }
  return causes;
}
