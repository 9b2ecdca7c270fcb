import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';

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
