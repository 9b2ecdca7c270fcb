/** A named check served under /healthz, /livez and /readyz (readiness-only checks set `readinessOnly`). */
export interface HealthCheck {
  readonly name: string;
  readonly readinessOnly?: boolean;
  /** Resolves when healthy; rejects with the reason otherwise. */
  check(): Promise<void>;
}
