import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';

const count = (map: unknown) => (map && typeof map === 'object' ? Object.keys(map).length : 0);

/** kube's ConfigMap printer (`kubectl get cm`: NAME, DATA — the keys of data and binaryData —, AGE). */
export const configMapTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Data', type: 'string', format: '', description: builtinSchema('configmap.v1').properties!.data!.description!, priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => [obj.metadata?.name ?? '', count(obj.data) + count(obj.binaryData), age(obj.metadata?.creationTimestamp, now)],
};
