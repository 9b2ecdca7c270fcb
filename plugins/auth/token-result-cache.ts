import { hash } from 'node:crypto';

/** At most this many results are kept (kube's token cache keeps 4096 too); the oldest go first. */
const maxEntries = 4096;

/**
 * kube's cached token authenticator, in small: the result of looking a token up, kept by audiences and a digest of
 * the token (never the token itself) — a user for `successTtlMs`, a refusal for `failureTtlMs`. What throws is not
 * kept: the next request asks again. Concurrent look-ups of the same token share one.
 */
export class TokenResultCache<T> {
  private readonly entries = new Map<string, { value: T | null; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<T | null>>();

  constructor(
    private readonly successTtlMs: number,
    private readonly failureTtlMs: number,
  ) {}

  get(token: string, audiences: readonly string[], lookUp: () => Promise<T | null>): Promise<T | null> {
    const key = hash('sha256', JSON.stringify([audiences, token]), 'base64');
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) return Promise.resolve(entry.value);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const lookup = lookUp().then(
      (value) => {
        this.inFlight.delete(key);
        const ttl = value === null ? this.failureTtlMs : this.successTtlMs;
        if (ttl > 0) this.keep(key, { value, expiresAt: Date.now() + ttl });
        return value;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, lookup);
    return lookup;
  }

  private keep(key: string, entry: { value: T | null; expiresAt: number }): void {
    this.entries.delete(key);
    if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }
}
