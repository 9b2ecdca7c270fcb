/** What every benchmark module gets from bench/run.ts: the configuration, the shared PKI and token, a temp dir, a log. */
import type { BenchConfig } from './config.js';

export interface BenchContext {
  cfg: BenchConfig;
  /** The run's temp dir: a benchmark makes its own data dirs under it. */
  root: string;
  /** The `ensurePki` dir every server child serves from, and its CA certificate (what clients trust). */
  pkiDir: string;
  caCertPem: string;
  /** The admin bearer token every kapi child accepts. */
  token: string;
  log(msg: string): void;
  /** Where to save the server's CPU profile named `name` (BENCH_PROFILE=1), or undefined when not profiling. */
  profilePath(name: string): string | undefined;
}
