/** kube's ceiling on the Retry-After priority and fairness suggests. */
const maxRetryAfter = 32;

/**
 * The Retry-After of one priority level's rejections, as kube's dropped-requests tracker adapts it (like TCP's
 * congestion window): from 1 s, doubled when the last Retry-After seconds saw at least 3× as many rejections (at most
 * once per Retry-After), lowered by one when they saw fewer than Retry-After rejections. Recomputed as a new second
 * sees its first rejection.
 */
export class RetryAfter {
  private value = 1;
  private lastIncrease = 0;
  private currentSecond = 0;
  private currentCount = 0;
  /** Rejections per past second, oldest first. */
  private history: { second: number; count: number }[] = [];

  get seconds(): number {
    return this.value;
  }

  recordRejection(nowMs = Date.now()): void {
    const second = Math.floor(nowMs / 1000);
    if (second === this.currentSecond) {
      this.currentCount++;
      return;
    }
    if (this.currentCount > 0) this.history.push({ second: this.currentSecond, count: this.currentCount });
    this.history = this.history.filter((h) => second - h.second <= maxRetryAfter);
    this.currentSecond = second;
    this.currentCount = 1;
    this.update(second);
  }

  private update(second: number): void {
    const recent = this.history.filter((h) => second - h.second <= this.value && h.second < second).reduce((n, h) => n + h.count, 0);
    if (second - this.lastIncrease >= this.value && recent >= 3 * this.value) {
      this.value = Math.min(this.value * 2, maxRetryAfter);
      this.lastIncrease = second;
    } else if (recent < this.value && this.value > 1) {
      this.value--;
    }
  }
}
