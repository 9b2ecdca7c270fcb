import { Gauge, type Registry } from 'prom-client';

export type RequestKind = 'readOnly' | 'mutating';

const windowMs = 1000;

/**
 * apiserver_current_inflight_requests: as kube reports it, the most requests of each kind (readOnly, mutating) that
 * were in flight at once during the last second, long-running requests not counted.
 */
export class InflightRequests {
  private readonly current: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  private readonly peak: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  private windowStart = Date.now();

  constructor(registry: Registry) {
    const peakOf = (kind: RequestKind) => this.peakOf(kind);
    new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: '[STABLE] The most requests in flight at once during the last second, by request kind.',
      labelNames: ['request_kind'],
      registers: [registry],
      collect() {
        this.set({ request_kind: 'readOnly' }, peakOf('readOnly'));
        this.set({ request_kind: 'mutating' }, peakOf('mutating'));
      },
    });
  }

  started(kind: RequestKind): void {
    this.rollWindow();
    this.peak[kind] = Math.max(this.peak[kind], ++this.current[kind]);
  }

  finished(kind: RequestKind): void {
    this.current[kind]--;
  }

  private peakOf(kind: RequestKind): number {
    this.rollWindow();
    return Math.max(this.peak[kind], this.current[kind]);
  }

  /** A new window starts with what is in flight now. */
  private rollWindow(): void {
    const now = Date.now();
    if (now - this.windowStart < windowMs) return;
    this.windowStart = now;
    this.peak.readOnly = this.current.readOnly;
    this.peak.mutating = this.current.mutating;
  }
}
