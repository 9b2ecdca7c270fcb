import type { Informer, InformerEvent } from '../contracts/informer.js';
import type { RestContext, RestStorage } from '../contracts/rest-storage.js';
import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import { listAllPages, listEverything } from '../rest/stored-objects.js';
import { loopbackUser } from '../rest/loopback-clients.js';
import { InformerObjects } from './informer-objects.js';
import { log } from '../../lib/log/logger.js';

/** How long the informer waits before it lists again after the storage's watch ended; doubled after each failure. */
const relistDelayMs = 1000;
const maxRelistDelayMs = 60_000;

/**
 * The informer of a resource served from its own RestStorage (which has no watch cache): it lists the storage, then
 * follows its watch from the list's resourceVersion, as client-go's reflector does; when the watch ends or fails it
 * lists again and reports how the objects differ from what it had.
 */
export class RestStorageInformer implements Informer {
  private readonly objects: InformerObjects;
  private readonly firstSync: Promise<void>;
  private firstSynced!: () => void;
  private readonly stopping = new AbortController();

  constructor(
    private readonly rt: ResourceType,
    private readonly storage: Required<Pick<RestStorage, 'list' | 'watch'>>,
    /** Resolves when the server runs: following starts then. */
    started: Promise<void>,
  ) {
    this.objects = new InformerObjects(rt.names.plural);
    this.firstSync = new Promise((resolve) => (this.firstSynced = resolve));
    void started.then(() => this.follow());
  }

  synced(): Promise<void> {
    return this.firstSync;
  }

  current(): ReadonlyMap<string, KubeObject> {
    return this.objects.current();
  }

  subscribe(onEvents: (events: InformerEvent[]) => void): () => void {
    return this.objects.subscribe(onEvents);
  }

  stop(): void {
    this.stopping.abort();
  }

  private async follow(): Promise<void> {
    const ctx: RestContext = { namespace: '', name: '', user: loopbackUser, signal: this.stopping.signal, dryRun: false };
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      try {
        const resourceVersion = await this.relist(ctx);
        this.firstSynced();
        for await (const e of this.storage.watch(ctx, { ...listEverything, resourceVersion })) {
          if (e.type !== 'BOOKMARK') this.objects.apply([{ key: keyOf(e.object), type: e.type, object: e.object }]);
        }
        failures = 0;
      } catch (err) {
        failures++;
        if (!this.stopping.signal.aborted) log.error(`following ${this.rt.names.plural}.${this.rt.group} failed (${err instanceof Error ? err.message : String(err)}); listing again`);
      }
      const delay = Math.min(maxRelistDelayMs, relistDelayMs * 2 ** Math.min(failures, 16));
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.stopping.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, delay).unref();
        this.stopping.signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Lists every object, replaces what it had, reports the differences; returns the list's resourceVersion. */
  private async relist(ctx: RestContext): Promise<string> {
    const { items, resourceVersion } = await listAllPages(this.storage.list, ctx);
    this.objects.replace(new Map(items.map((o) => [keyOf(o), o])));
    return resourceVersion;
  }
}

/** The informer's key of an object: `namespace/name`, or `name` when cluster-scoped. */
function keyOf(obj: KubeObject): string {
  const meta = obj.metadata ?? {};
  return meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
}
