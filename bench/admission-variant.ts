import type { BenchContext } from './context.js';
import type { HttpsClient } from './https-client.js';

/** What an admission variant runs beside the server under test, and what it creates in it before measuring. */
export interface AdmissionVariantRun {
  /** Run against the server (the widgets CRD already served) before creates are measured, e.g. create policies. */
  setup(client: HttpsClient): Promise<void>;
  /** Stops what the variant started (e.g. a webhook server process). */
  stop(): Promise<void>;
}

/** One row of the admission benchmark: the same durable widget creates, with some admission configured. */
export interface AdmissionVariant {
  /** Names the row's data dir and results. */
  key: string;
  /** E.g. "5 in-process plugins". */
  title: string;
  /** Trivial in-process plugins the server registers (bench/bench-admission-plugins.ts). */
  admissionPlugins?: number;
  /** Starts what the variant needs for the whole row (set-up and measurement). */
  start?(ctx: BenchContext): Promise<AdmissionVariantRun>;
  /** Whether the row is judged by added p50 latency (ms, one connection) instead of throughput cost. */
  judgedByLatency?: boolean;
}
