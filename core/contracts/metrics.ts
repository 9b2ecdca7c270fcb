import type { Histogram, Registry } from 'prom-client';

/**
 * The server's Prometheus metrics, served at /metrics (one registry per server, never prom-client's global one: several
 * servers may share a process). A module adds its own metrics by creating them with `registers: [metrics.registry]`.
 */
export interface Metrics {
  readonly registry: Registry;
  /** apiserver_admission_webhook_admission_duration_seconds, which the admission webhook plugins observe. */
  readonly admissionWebhookDuration: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
}
