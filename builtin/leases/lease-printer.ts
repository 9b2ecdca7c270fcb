import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import type { Lease } from './lease-types.js';

/** kube's Lease printer (`kubectl get leases`: NAME, HOLDER, AGE). */
export const leaseTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    {
      name: 'Holder',
      type: 'string',
      format: '',
      description:
        'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => [obj.metadata?.name ?? '', (obj as Lease).spec?.holderIdentity ?? '', age(obj.metadata?.creationTimestamp, now)],
};
