/** A write in flight that took slots: they stay taken until it ends, and when it stored them, until the informer has them. */
export interface Reservation {
  readonly slots: { pool: SlotPool; slot: number }[];
  /** Set when the write stored its object: the revision the informer must reach before the slots are its to report. */
  storedAt?: bigint;
}

/**
 * One pool of numbered slots (the offsets of cluster IPs in their range, or of node ports in theirs): the slots the
 * stored Services hold, by the key of the Service holding each, and those reserved by writes in flight. A slot is free
 * when neither holds it. Every check-and-take is synchronous, so two writes never take the same slot.
 */
export class SlotPool {
  private readonly stored = new Map<number, string>();
  private readonly reserved = new Map<number, Reservation>();

  /** Dynamic picks start above this band, which is left to slots users ask for by value. */
  private readonly staticBand: number;

  constructor(
    readonly size: number,
    staticBand: number,
    private readonly random: () => number = Math.random,
  ) {
    // a small range may be all static band (kube's offset is at least 16)
    this.staticBand = Math.min(staticBand, size);
  }

  /** Records that the stored Service `key` holds the slot. */
  hold(slot: number, key: string): void {
    this.stored.set(slot, key);
  }

  /** Forgets that `key` holds the slot (unless another Service holds it now). */
  drop(slot: number, key: string): void {
    if (this.stored.get(slot) === key) this.stored.delete(slot);
  }

  /** The key of the stored Service holding the slot. */
  holder(slot: number): string | undefined {
    return this.stored.get(slot);
  }

  isReserved(slot: number): boolean {
    return this.reserved.has(slot);
  }

  reserve(slot: number, reservation: Reservation): void {
    this.reserved.set(slot, reservation);
    reservation.slots.push({ pool: this, slot });
  }

  unreserve(slot: number, reservation: Reservation): void {
    if (this.reserved.get(slot) === reservation) this.reserved.delete(slot);
  }

  /**
   * A free slot, none of `taken`: a random one of the dynamic band first (as kube's allocators, so Services created
   * together do not race for the same next slot), then of the static band; undefined when the pool is full.
   */
  pickFree(taken: ReadonlySet<number> = new Set()): number | undefined {
    const free = (slot: number) => !this.stored.has(slot) && !this.reserved.has(slot) && !taken.has(slot);
    return this.scan(this.staticBand, this.size, free) ?? this.scan(0, this.staticBand, free);
  }

  private scan(from: number, to: number, free: (slot: number) => boolean): number | undefined {
    const count = to - from;
    if (count <= 0) return undefined;
    const start = Math.floor(this.random() * count);
    for (let i = 0; i < count; i++) {
      const slot = from + ((start + i) % count);
      if (free(slot)) return slot;
    }
    return undefined;
  }
}
