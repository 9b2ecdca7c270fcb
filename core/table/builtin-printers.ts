import type { TableColumnDefinition, TablePrinter } from '../contracts/table-types.js';
import { age } from './human-duration.js';
import { isZeroTime, parseRFC3339 } from './timestamp.js';

/** metav1.ObjectMeta's documentation of `name`, used as the Name column's description. */
export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** metav1.ObjectMeta's documentation of `creationTimestamp`, used for age and creation columns. */
export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export const NAME_COLUMN: TableColumnDefinition = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 };

/** The creation time as the default convertor prints it: RFC 3339 in UTC, Go's zero time when unset. */
function createdAt(timestamp: string | undefined): string {
  const ms = timestamp ? parseRFC3339(timestamp) : undefined;
  return ms === undefined || isZeroTime(ms) ? '0001-01-01T00:00:00Z' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** k8s.io/apiserver's default table convertor, for types without a printer: NAME, CREATED AT. */
export const defaultTablePrinter: TablePrinter = {
  columnDefinitions: [NAME_COLUMN, { name: 'Created At', type: 'date', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 }],
  cells: (obj) => [obj.metadata?.name ?? '', createdAt(obj.metadata?.creationTimestamp)],
  nullRowsWhenEmpty: true,
};

/** CustomResourceDefinitions use the default convertor (`kubectl get crd`: NAME, CREATED AT). */
export const customResourceDefinitionTablePrinter = defaultTablePrinter;

/** kube's Namespace printer (`kubectl get ns`: NAME, STATUS, AGE). */
export const namespaceTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => {
    const status = obj.status as { phase?: unknown } | undefined;
    return [obj.metadata?.name ?? '', typeof status?.phase === 'string' ? status.phase : '', age(obj.metadata?.creationTimestamp, now)];
  },
};
