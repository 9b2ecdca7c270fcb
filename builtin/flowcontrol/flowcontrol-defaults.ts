import type { FlowSchema, PriorityLevelConfiguration } from '../../core/contracts/flowcontrol.js';

/** kube's v1 defaulting of a FlowSchema: matchingPrecedence 1000 when unset (or 0, Go's zero value). */
export function defaultFlowSchema(fs: FlowSchema): void {
  if (fs.spec && !fs.spec.matchingPrecedence) fs.spec.matchingPrecedence = 1000;
}

/**
 * kube's v1 defaulting of a PriorityLevelConfiguration: a Limited level's nominalConcurrencyShares 30 and
 * lendablePercent 0 when unset, its queuing 64 queues, hand size 8, queue length limit 50 where 0; an Exempt
 * level's shares and lendablePercent 0.
 */
export function defaultPriorityLevelConfiguration(pl: PriorityLevelConfiguration): void {
  const limited = pl.spec?.limited;
  if (limited) {
    limited.nominalConcurrencyShares ??= 30;
    limited.lendablePercent ??= 0;
    const queuing = limited.limitResponse?.queuing;
    if (queuing) {
      queuing.queues ||= 64;
      queuing.handSize ||= 8;
      queuing.queueLengthLimit ||= 50;
    }
  }
  const exempt = pl.spec?.exempt;
  if (exempt) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
}
