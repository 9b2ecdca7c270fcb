import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';

const description = (field: string) => builtinSchema('secret.v1').properties![field]!.description!;

/** kube's Secret printer (`kubectl get secrets`: NAME, TYPE, DATA — the number of keys, never their values —, AGE). */
export const secretTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Type', type: 'string', format: '', description: description('type'), priority: 0 },
    { name: 'Data', type: 'string', format: '', description: description('data'), priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => {
    const { type, data } = obj as { type?: unknown; data?: unknown };
    const keys = data && typeof data === 'object' ? Object.keys(data).length : 0;
    return [obj.metadata?.name ?? '', typeof type === 'string' ? type : '', keys, age(obj.metadata?.creationTimestamp, now)];
  },
};
