import { CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { availableCondition, type APIService } from './apiservice-types.js';

/** kube-aggregator's APIService table (`kubectl get apiservices`: NAME, SERVICE, AVAILABLE, AGE). */
export const apiServiceTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Service', type: 'string', format: '', description: 'The reference to the service that hosts this API endpoint.', priority: 0 },
    { name: 'Available', type: 'string', format: '', description: 'Whether this service is available.', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells(obj, now) {
    const apiService = obj as APIService;
    const service = apiService.spec?.service;
    return [obj.metadata?.name ?? '', service ? `${service.namespace ?? ''}/${service.name ?? ''}` : 'Local', available(apiService), age(obj.metadata?.creationTimestamp, now)];
  },
};

/** `True`, `False (Reason)`, or `Unknown` when there is no Available condition. */
function available(apiService: APIService): string {
  const condition = availableCondition(apiService);
  if (!condition) return 'Unknown';
  if (condition.status === 'True' || !condition.reason) return condition.status;
  return `${condition.status} (${condition.reason})`;
}
