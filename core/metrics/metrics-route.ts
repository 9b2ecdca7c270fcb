import type { Registry } from 'prom-client';
import type { ServerRoute } from '../contracts/route.js';
import { processMetrics } from './process-metrics.js';

/**
 * GET /metrics: the process's metrics and the server's, in Prometheus' text format (a nonResourceURL the authorizers
 * decide on, as in kube).
 */
export function metricsRoute(registry: Registry): ServerRoute {
  return {
    path: '/metrics',
    async handle(ctx) {
      const [process, server] = await Promise.all([processMetrics().metrics(), registry.metrics()]);
      ctx.set('Content-Type', registry.contentType);
      ctx.body = process + server;
    },
  };
}
