import { Registry, collectDefaultMetrics } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * prom-client's process and Node.js runtime metrics (process_*, nodejs_*), in one registry per process (not
 * prom-client's global one): they describe the process, whatever server serves them, and their collectors (an event
 * loop delay monitor, a GC observer) cannot be stopped, so one set serves every server a process runs.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
