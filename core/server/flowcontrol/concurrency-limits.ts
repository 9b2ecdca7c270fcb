import type { PriorityLevelConfiguration } from '../../contracts/flowcontrol.js';
import type { QueueSetConfig } from './queue-set.js';

/** The v1 defaults of a level that does not say (the API server defaults them on write; a level may predate that). */
const defaultLimitedShares = 30;
const defaultQueuing = { queues: 64, handSize: 8, queueLengthLimit: 50 };

/** A level's nominal concurrency shares, as v1 defaults them (Limited: 30, Exempt: 0). */
export function nominalShares(pl: PriorityLevelConfiguration): number {
  return pl.spec?.type === 'Exempt' ? (pl.spec.exempt?.nominalConcurrencyShares ?? 0) : (pl.spec?.limited?.nominalConcurrencyShares ?? defaultLimitedShares);
}

/**
 * A Limited level's seats and queues: its share of the server's concurrency limit (`--max-requests-inflight` plus
 * `--max-mutating-requests-inflight`), ceil(limit × shares / all levels' shares), as kube's nominal concurrency
 * limit. kube's borrowing between levels (lendablePercent, borrowingLimitPercent) is not modelled: each level keeps its
 * nominal seats.
 */
export function queueSetConfig(pl: PriorityLevelConfiguration, serverLimit: number, totalShares: number): QueueSetConfig {
  const concurrencyLimit = totalShares > 0 ? Math.ceil((serverLimit * nominalShares(pl)) / totalShares) : 0;
  const response = pl.spec?.limited?.limitResponse;
  if (response?.type !== 'Queue') return { concurrencyLimit };
  return { concurrencyLimit, queuing: { ...defaultQueuing, ...response.queuing } };
}
