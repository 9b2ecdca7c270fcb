import type { Registry } from 'prom-client';
import type { ServerRoute } from '../contracts/route.js';

/** GET /metrics: the registry in Prometheus' text format (a nonResourceURL the authorizers decide on, as in kube). */
export function metricsRoute(registry: Registry): ServerRoute {
  return {
    path: '/metrics',
    async handle(ctx) {
      const text = await registry.metrics();
      ctx.set('Content-Type', registry.contentType);
      ctx.body = text;
    },
  };
}
