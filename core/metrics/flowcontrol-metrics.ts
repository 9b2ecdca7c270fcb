import { Counter, Gauge, type Registry } from 'prom-client';
import type { FlowControlStats, PriorityLevelStats } from '../contracts/flowcontrol.js';

/** Where the flowcontrol metrics read from: the server's request limiter once it listens (absent before). */
export type FlowControlStatsSource = () => FlowControlStats | undefined;

/**
 * kube's `apiserver_flowcontrol_*` metrics, read from the request limiter's counters at scrape time, per priority
 * level (kube also labels them by FlowSchema; kapi counts per level only, so `flow_schema` is left out). Nothing is
 * reported under max-in-flight, as kube reports these only with priority and fairness.
 */
export function registerFlowControlMetrics(registry: Registry, source: FlowControlStatsSource): void {
  const levels = (): PriorityLevelStats[] => {
    const stats = source();
    return stats?.mode === 'priority-and-fairness' ? stats.levels() : [];
  };
  const gauge = (name: string, help: string, value: (l: PriorityLevelStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['priority_level'],
      registers: [registry],
      collect() {
        this.reset();
        for (const l of levels()) this.set({ priority_level: l.priorityLevel }, value(l));
      },
    });
  gauge('apiserver_flowcontrol_nominal_limit_seats', '[BETA] Nominal number of execution seats configured for each priority level.', (l) => l.nominalLimitSeats);
  gauge('apiserver_flowcontrol_current_executing_requests', '[BETA] Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage.', (l) => l.executingRequests);
  gauge('apiserver_flowcontrol_current_executing_seats', '[BETA] Concurrency (number of seats) occupied by the currently executing requests.', (l) => l.executingSeats);
  gauge('apiserver_flowcontrol_current_inqueue_requests', '[BETA] Number of requests currently pending in queues of the API Priority and Fairness subsystem.', (l) => l.waitingRequests);
  new Counter({
    name: 'apiserver_flowcontrol_dispatched_requests_total',
    help: '[BETA] Number of requests executed by API Priority and Fairness subsystem.',
    labelNames: ['priority_level'],
    registers: [registry],
    collect() {
      this.reset();
      for (const l of levels()) this.inc({ priority_level: l.priorityLevel }, l.dispatchedRequests);
    },
  });
  new Counter({
    name: 'apiserver_flowcontrol_rejected_requests_total',
    help: '[BETA] Number of requests rejected by API Priority and Fairness subsystem.',
    labelNames: ['priority_level', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const l of levels()) {
        for (const [reason, count] of Object.entries(l.rejectedRequests)) if (count > 0) this.inc({ priority_level: l.priorityLevel, reason }, count);
      }
    },
  });
}
