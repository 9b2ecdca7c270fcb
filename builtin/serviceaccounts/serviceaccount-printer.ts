import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';

/** kube's ServiceAccount printer (`kubectl get sa`: NAME, SECRETS — how many are listed —, AGE). */
export const serviceAccountTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    {
      name: 'Secrets',
      type: 'string',
      format: '',
      description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => {
    const secrets = (obj as { secrets?: unknown }).secrets;
    return [obj.metadata?.name ?? '', Array.isArray(secrets) ? secrets.length : 0, age(obj.metadata?.creationTimestamp, now)];
  },
};
