import type { TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN } from '../../core/contracts/table-types.js';

/**
 * kube's printer for Validating- and MutatingWebhookConfigurations (`kubectl get validatingwebhookconfigurations`:
 * NAME, WEBHOOKS, AGE).
 */
export const webhookConfigurationTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Webhooks', type: 'integer', format: '', description: 'Webhooks indicates the number of webhooks registered in this configuration', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => [obj.metadata?.name ?? '', Array.isArray(obj.webhooks) ? obj.webhooks.length : 0, age(obj.metadata?.creationTimestamp, now)],
};
