import { NAME_COLUMN, type TableColumnDefinition, type TablePrinter } from '../../core/contracts/table-types.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { age } from '../../lib/go/human-duration.js';
import { isZeroTime, parseRFC3339 } from '../../lib/go/timestamp.js';
import type { CoreEvent } from './event-types.js';

const column = (name: string, description: string, priority = 0): TableColumnDefinition => ({ name, type: 'string', format: '', description, priority });

/** kube's Event columns (printers.go), with core/v1 Event's documentation as descriptions; priority 1 is `-o wide`. */
const columnDefinitions: TableColumnDefinition[] = [
  column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
  column('Reason', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
  column('Object', 'The object that this event is about.'),
  column('Subobject', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.', 1),
  column('Source', 'The component reporting this event. Should be a short machine understandable string.', 1),
  column('Message', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
  column('Count', 'The number of times this event has occurred.', 1),
  { ...NAME_COLUMN, priority: 1 },
];

const isUnset = (t: string | null | undefined) => {
  const parsed = t ? parseRFC3339(t) : undefined;
  return !t || (parsed !== undefined && isZeroTime(parsed));
};

const firstNonEmpty = (a: string | undefined, b: string | undefined) => a || b || '';

/** The cells of kube's printEvent (the server prints every column, as with GenerateOptions{Wide: true}). */
function cells(e: CoreEvent, now: Date): unknown[] {
  let firstSeen = age(e.firstTimestamp ?? undefined, now);
  if (isUnset(e.firstTimestamp)) firstSeen = age(e.eventTime ?? undefined, now);
  let lastSeen = isUnset(e.lastTimestamp) ? firstSeen : age(e.lastTimestamp ?? undefined, now);
  let count = e.count ?? 0;
  if (e.series) {
    lastSeen = age(e.series.lastObservedTime ?? undefined, now);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    count = 1; // singleton events of the new API set no count
  }
  const involved = e.involvedObject ?? {};
  const kind = (involved.kind ?? '').toLowerCase();
  const target = involved.name ? `${kind}/${involved.name}` : kind;
  const component = firstNonEmpty(e.source?.component, e.reportingComponent);
  const instance = firstNonEmpty(e.source?.host, e.reportingInstance);
  const source = instance ? `${component}, ${instance}` : component;
  return [lastSeen, e.type ?? '', e.reason ?? '', target, involved.fieldPath ?? '', source, (e.message ?? '').trim(), firstSeen, count, e.metadata?.name ?? ''];
}

/** The Event printer for objects in the form `toCore` turns them into a core/v1 Event from. */
export function eventTablePrinter(toCore: (obj: KubeObject) => CoreEvent): TablePrinter {
  return { columnDefinitions, cells: (obj, now) => cells(toCore(obj), now) };
}
