import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import type { FlowSchema, PriorityLevelConfiguration } from '../../core/contracts/flowcontrol.js';
import { age } from '../../lib/go/human-duration.js';

const column = (name: string, description: string) => ({ name, type: 'string', format: '', description, priority: 0 });

/**
 * kube's FlowSchema printer (`kubectl get flowschemas`: NAME, PRIORITYLEVEL, MATCHINGPRECEDENCE, DISTINGUISHERMETHOD,
 * AGE, MISSINGPL — the status of the Dangling condition, "?" before the configuration controller has set one).
 */
export const flowSchemaTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    column('PriorityLevel', '`name` is the name of the priority level configuration being referenced Required.'),
    column('MatchingPrecedence', '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request.'),
    column('DistinguisherMethod', '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema.'),
    column('Age', CREATION_TIMESTAMP_DESCRIPTION),
    column('MissingPL', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells: (obj, now) => {
    const fs = obj as FlowSchema;
    const dangling = fs.status?.conditions?.find((c) => c.type === 'Dangling');
    return [
      fs.metadata?.name ?? '',
      fs.spec?.priorityLevelConfiguration?.name ?? '',
      fs.spec?.matchingPrecedence ?? 0,
      fs.spec?.distinguisherMethod?.type ?? '<none>',
      age(fs.metadata?.creationTimestamp, now),
      dangling ? (dangling.status ?? '') : '?',
    ];
  },
};

/**
 * kube's PriorityLevelConfiguration printer (NAME, TYPE, NOMINALCONCURRENCYSHARES, QUEUES, HANDSIZE,
 * QUEUELENGTHLIMIT, AGE; `<none>` where a level has no such setting, as an Exempt one).
 */
export const priorityLevelConfigurationTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    column('Type', '`type` indicates whether this priority level is subject to limitation on request execution.'),
    column('NominalConcurrencyShares', '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level.'),
    column('Queues', '`queues` is the number of queues for this priority level.'),
    column('HandSize', '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.'),
    column('QueueLengthLimit', '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time.'),
    column('Age', CREATION_TIMESTAMP_DESCRIPTION),
  ],
  cells: (obj, now) => {
    const pl = obj as PriorityLevelConfiguration;
    const limited = pl.spec?.limited;
    const queuing = limited?.limitResponse?.queuing;
    const none = '<none>';
    return [
      pl.metadata?.name ?? '',
      pl.spec?.type ?? '',
      limited ? (limited.nominalConcurrencyShares ?? 0) : none,
      queuing ? (queuing.queues ?? 0) : none,
      queuing ? (queuing.handSize ?? 0) : none,
      queuing ? (queuing.queueLengthLimit ?? 0) : none,
      age(pl.metadata?.creationTimestamp, now),
    ];
  },
};
