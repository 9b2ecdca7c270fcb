import { Gauge, Histogram, Registry } from 'prom-client';
import type { Metrics } from '../contracts/metrics.js';
import { WatchEventMetrics, type WatchEventCounter } from './watch-event-counter.js';
import { KeyedCounter, KeyedHistogram } from './keyed-metrics.js';
import type { FlowControlStats } from '../contracts/flowcontrol.js';
import { registerFlowControlMetrics } from './flowcontrol-metrics.js';

/** kube's buckets for request and storage latencies (seconds), from 5 ms to a minute. */
const latencyBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const admissionStepBuckets = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const admissionWebhookBuckets = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];

const longRunningLabels = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

/** How many stored objects each resource has, by its group-resource ("configmaps", "widgets.example.com"). */
export type StoredObjectCounts = () => Iterable<readonly [groupResource: string, count: number]>;

/**
 * One server's metrics, with kube-apiserver's names, types, labels and buckets (k8s.io/apiserver's endpoints, storage
 * and admission metrics as of 1.32), in a registry of the server's own (/metrics adds the process's: process-metrics.ts).
 * The help texts carry kube's stability level in brackets, as kube's do.
 */
export class ServerMetrics implements Metrics {
  readonly registry = new Registry();

  /** By verb, dry_run, group, version, resource, subresource, scope, component and code (see request-metrics.ts). */
  readonly requestTotal = new KeyedCounter(
    this.registry,
    'apiserver_request_total',
    '[STABLE] Requests served, by verb, dry run, group, version, resource, subresource, scope, component and HTTP code.',
  );

  /** By verb, dry_run, group, version, resource, subresource, scope and component. */
  readonly requestDuration = new KeyedHistogram(
    this.registry,
    'apiserver_request_duration_seconds',
    '[STABLE] Response latency in seconds, by verb, dry run, group, version, resource, subresource, scope and component.',
    latencyBuckets,
  );

  readonly longRunningRequests = new Gauge({
    name: 'apiserver_longrunning_requests',
    help: '[STABLE] Long-running requests (watches, proxies, streams) in progress, by verb, group, version, resource, subresource, scope and component.',
    labelNames: longRunningLabels,
    registers: [this.registry],
  });

  private readonly watchEvents = new WatchEventMetrics(this.registry);

  /**
   * kube's name for storage latencies, kept for every storage plugin (SQLite and memory too) because it is the name
   * kube's dashboards and alerts query; `type` is the group-resource, as kube reports it.
   */
  readonly storageRequestDuration = new KeyedHistogram(
    this.registry,
    'etcd_request_duration_seconds',
    '[ALPHA] Storage request latency in seconds, by operation and object type (group-resource).',
    latencyBuckets,
  );

  readonly admissionStepDuration = new Histogram({
    name: 'apiserver_admission_step_admission_duration_seconds',
    help: '[STABLE] Admission step latency in seconds, by operation, step type (admit or validate) and whether it rejected.',
    labelNames: ['type', 'operation', 'rejected'],
    buckets: admissionStepBuckets,
    registers: [this.registry],
  });

  readonly admissionWebhookDuration = new Histogram({
    name: 'apiserver_admission_webhook_admission_duration_seconds',
    help: '[STABLE] Admission webhook latency in seconds, by webhook name, operation, type (admit or validating) and whether it rejected.',
    labelNames: ['name', 'type', 'operation', 'rejected'],
    buckets: admissionWebhookBuckets,
    registers: [this.registry],
  });

  private storedObjects: StoredObjectCounts = () => [];
  private flowControl?: FlowControlStats;

  constructor() {
    const counts = (): StoredObjectCounts => this.storedObjects;
    new Gauge({
      name: 'apiserver_storage_objects',
      help: '[STABLE] Stored objects at the time of the scrape, by resource.',
      labelNames: ['resource'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [resource, count] of counts()()) this.set({ resource }, count);
      },
    });
    registerFlowControlMetrics(this.registry, () => this.flowControl);
  }

  /** What the watches of a group, version and resource count the events they send into. */
  watchEventCounter(group: string, version: string, resource: string): WatchEventCounter {
    return this.watchEvents.counter(group, version, resource);
  }

  /** Where the apiserver_flowcontrol_* metrics read from (the request limiter, once the server listens). */
  followFlowControl(stats: FlowControlStats): void {
    this.flowControl = stats;
  }

  /** Where apiserver_storage_objects reads its counts from (the watch caches, once the server listens). */
  countStoredObjects(counts: StoredObjectCounts): void {
    this.storedObjects = counts;
  }
}
