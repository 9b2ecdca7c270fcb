import type { KVStore, KVWatch } from '../contracts/kv-store.js';
import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import type { Controller } from '../contracts/controller.js';
import { ResourceStore } from './resource-store.js';
import { ControllerTimers } from '../server/controller-timers.js';

/** How long to wait before listing again after the watch ended (storage unavailable, history compacted). */
const relistDelayMs = 1000;

/**
 * Keeps every object of one resource type as storage has it (list, then watch; relist when the watch ends), so
 * in-process consumers such as admission plugins read their configuration from storage, not from this process:
 * every kapi instance on the same storage sees the same configuration. `onChange` runs after each batch of changes.
 */
export class ResourceInformer implements Controller {
  readonly name: string;
  private readonly objects = new Map<string, KubeObject>();
  private watch?: KVWatch;
  private readonly timers = new ControllerTimers();
  private store!: ResourceStore;

  constructor(
    private readonly kv: () => KVStore,
    private readonly rt: ResourceType,
    private readonly onChange: (objects: ReadonlyMap<string, KubeObject>) => void,
  ) {
    this.name = `informer-${rt.names.plural}`;
  }

  async start(): Promise<void> {
    this.store = new ResourceStore(this.kv(), this.rt);
    await this.sync();
  }

  async stop(): Promise<void> {
    this.timers.stop();
    this.watch?.cancel();
  }

  /** Objects are keyed `namespace/name` (`name` alone for cluster-scoped ones). */
  current(): ReadonlyMap<string, KubeObject> {
    return this.objects;
  }

  private async sync(): Promise<void> {
    const list = await this.store.list('');
    if (this.timers.stopped) return; // stopped while listing: start no watch
    this.objects.clear();
    for (const obj of list.items) this.objects.set(keyOf(obj), obj);
    this.onChange(this.objects);
    this.watch = this.store.watch('', Number(list.resourceVersion), {
      onEvents: (events) => {
        for (const e of events) {
          if (e.type === 'DELETED') this.objects.delete(keyOf(e.object));
          else this.objects.set(keyOf(e.object), e.object);
        }
        this.onChange(this.objects);
      },
      onError: () => this.timers.retry(relistDelayMs, `listing ${this.rt.names.plural}`, () => this.sync()),
    });
  }
}

function keyOf(obj: KubeObject): string {
  const { namespace, name } = obj.metadata ?? {};
  return namespace ? `${namespace}/${name}` : (name ?? '');
}
