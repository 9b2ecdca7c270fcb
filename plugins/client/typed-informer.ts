/**
 * A local cache of one resource's objects kept current by a watch, as client-go's informers: list, then watch from
 * the list's resourceVersion with bookmarks; a watch the server ends is resumed from the last version seen, and one
 * refused with 410 Gone (the version left the server's history) is replaced by a new list, whose differences with the
 * cache are reported as events.
 */
import { ApiError } from '../../core/contracts/api-error.js';
import type { ApiObject, TypedClient } from './typed-client.js';
import type { WatchEvent } from './watch-events.js';

export interface InformerHandlers<T> {
  add?(object: T): void;
  update?(oldObject: T, newObject: T): void;
  delete?(object: T): void;
  /** A list or watch failed (other than 410 Gone); the informer tries again after `retryDelayMs`. */
  error?(err: unknown): void;
}

export interface InformerOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** The wait before retrying after a failed list or watch (default 1s). */
  retryDelayMs?: number;
  /** Asks the server to end each watch after this long (then it is resumed from the last version seen). */
  watchTimeoutSeconds?: number;
}

export class TypedInformer<T extends ApiObject> {
  private readonly cache = new Map<string, T>();
  private readonly handlers = new Set<InformerHandlers<T>>();
  private readonly abort = new AbortController();
  private resourceVersion?: string;
  private running?: Promise<void>;
  private synced!: () => void;
  private readonly firstSync = new Promise<void>((resolve) => (this.synced = resolve));

  constructor(
    private readonly client: TypedClient<T>,
    private readonly options: InformerOptions = {},
  ) {}

  /** Adds handlers (called for the objects already cached too, as added); returns the function that removes them. */
  on(handlers: InformerHandlers<T>): () => void {
    this.handlers.add(handlers);
    for (const object of this.cache.values()) handlers.add?.(object);
    return () => this.handlers.delete(handlers);
  }

  /** Starts listing and watching; resolves once the first list is in the cache. */
  start(): Promise<void> {
    this.running ??= this.run();
    return this.firstSync;
  }

  /** Stops watching; the cache keeps its last state. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** The cached objects. Do not mutate them. */
  list(): T[] {
    return [...this.cache.values()];
  }

  /** The cached object `name` (in `namespace`, for namespaced resources). */
  get(name: string, namespace?: string): T | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  private async run(): Promise<void> {
    const { signal } = this.abort;
    while (!signal.aborted) {
      try {
        if (this.resourceVersion === undefined) await this.relist();
        this.synced();
        const events = this.client.watch({
          ...this.selectors(),
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: this.options.watchTimeoutSeconds,
          signal,
        });
        for await (const event of events) this.apply(event);
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof ApiError && err.code === 410) {
          this.resourceVersion = undefined;
          continue;
        }
        for (const h of this.handlers) h.error?.(err);
        await delay(this.options.retryDelayMs ?? 1000, signal);
      }
    }
  }

  private selectors() {
    const { labelSelector, fieldSelector } = this.options;
    return { labelSelector, fieldSelector };
  }

  /** Lists and reports what changed since the cache's state. */
  private async relist(): Promise<void> {
    const list = await this.client.list(this.selectors());
    const seen = new Set<string>();
    for (const object of list.items) {
      const key = keyOf(object);
      seen.add(key);
      this.put(key, object);
    }
    for (const [key, object] of this.cache) {
      if (seen.has(key)) continue;
      this.cache.delete(key);
      for (const h of this.handlers) h.delete?.(object);
    }
    this.resourceVersion = list.metadata.resourceVersion;
  }

  private apply(event: WatchEvent<T>): void {
    const version = event.object.metadata?.resourceVersion;
    if (version) this.resourceVersion = version;
    if (event.type === 'BOOKMARK') return;
    const key = keyOf(event.object);
    if (event.type === 'DELETED') {
      this.cache.delete(key);
      for (const h of this.handlers) h.delete?.(event.object);
    } else {
      this.put(key, event.object);
    }
  }

  private put(key: string, object: T): void {
    const old = this.cache.get(key);
    if (old && old.metadata?.resourceVersion === object.metadata?.resourceVersion) return;
    this.cache.set(key, object);
    for (const h of this.handlers) {
      if (old) h.update?.(old, object);
      else h.add?.(object);
    }
  }
}

function keyOf(object: ApiObject): string {
  const { namespace, name } = object.metadata ?? {};
  return namespace ? `${namespace}/${name}` : `${name}`;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
