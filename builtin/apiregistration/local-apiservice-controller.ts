import type { DependencyContainer } from 'tsyringe';
import { ApiError } from '../../core/contracts/api-error.js';
import type { Controller } from '../../core/contracts/controller.js';
import type { Informer } from '../../core/contracts/informer.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import type { RegistryChange, ResourceRegistry } from '../../core/contracts/resource-registry.js';
import { qualifiedName, type ResourceType } from '../../core/contracts/resource-type.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { RuntimeConfigError } from '../../core/contracts/runtime-config.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import { apiServiceResource, apiServiceResourceRef } from './apiservice-resource.js';
import { autoManagedLabel, type APIService } from './apiservice-types.js';
import { desiredLocalAPIServices, sameSpec, type DesiredAPIService } from './local-apiservices.js';
import { log } from '../../lib/log/logger.js';

/** How long to wait before checking a name again after a failed write. */
const retryMs = 1000;

/**
 * kube-apiserver's autoregister controller, fed as its built-in and CRD registration feed it: the local APIService of
 * every group-version served here is created when missing; a CRD's (`automanaged: "true"`) is also updated to its
 * desired spec, re-created when deleted and deleted when its version is no longer served. A built-in one
 * (`automanaged: onstart`) is only created, once per start: deleted by a user, it is back at the next start. As in kube,
 * an existing `onstart` APIService is never changed (kube's record of the ones present at start stays empty), and an
 * APIService without the label is the user's.
 */
export class LocalAPIServiceController implements Controller {
  readonly name = 'autoregister';
  private registry!: ResourceRegistry;
  private informer!: Informer;
  private client!: ResourceClient<APIService>;
  private desired = new Map<string, DesiredAPIService>();
  /** The served types by group, in the registry's order, so a change is judged against its group alone. */
  private readonly served = new Map<string, Map<string, ResourceType>>();
  private readonly synced = new Set<string>();
  /** The APIServices stored when the server started. */
  private atStart = new Set<string>();
  private readonly queue = new Set<string>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly timers = new ControllerTimers();
  private running = false;
  private scheduled = false;

  constructor(private readonly container: DependencyContainer) {}

  async start(): Promise<void> {
    this.registry = this.container.resolve(Tokens.Registry);
    // kube's aggregator refuses to start without its own group-version, whatever the runtime configuration says
    if (!this.registry.get(apiServiceResourceRef.group, apiServiceResourceRef.resource)) {
      throw new RuntimeConfigError(`API group/version ${apiServiceResourceRef.group}/v1 must be enabled`);
    }
    this.client = this.container.resolve(Tokens.Objects).forResource<APIService>(apiServiceResourceRef, { fieldManager: 'kube-apiserver' });
    this.informer = this.container.resolve(Tokens.Informers).forResource(apiServiceResource());
    this.unsubscribe.push(this.informer.subscribe((events) => this.enqueue(events.map((e) => e.object.metadata?.name ?? ''))));
    for (const rt of this.registry.all()) this.index(rt.group, qualifiedName(rt), rt);
    this.unsubscribe.push(this.registry.onChange((change) => this.refreshGroupVersionsOf(change)));
    await this.informer.synced();
    this.atStart = new Set(this.informer.current().keys());
    this.refreshDesired();
    this.enqueue([...this.informer.current().keys()]);
    // the built-in ones are in place before the server serves, as kube's post-start hook waits for them
    await this.drain();
  }

  async stop(): Promise<void> {
    this.timers.stop();
    for (const u of this.unsubscribe.splice(0)) u();
  }

  /** Recomputes the desired set from what is served; names that came or went are checked. */
  private refreshDesired(): void {
    const next = desiredLocalAPIServices(this.registry.all());
    this.enqueue(this.replaceDesired([...new Set([...next.keys(), ...this.desired.keys()])], next));
  }

  /** Recomputes the desired APIServices of the group-versions of the type that changed only (from its group's types). */
  private refreshGroupVersionsOf({ previous, current }: RegistryChange): void {
    const changed = (current ?? previous)!;
    const group = changed.group;
    this.index(group, qualifiedName(changed), current);
    const names = new Set([...(previous?.versions ?? []), ...(current?.versions ?? [])].map((v) => `${v.name}.${group}`));
    const next = desiredLocalAPIServices([...(this.served.get(group)?.values() ?? [])]);
    this.enqueue(this.replaceDesired([...names], next));
  }

  /** Keeps `served` as the registry has it: `rt` under `key` in `group` (undefined: no longer served). */
  private index(group: string, key: string, rt: ResourceType | undefined): void {
    let types = this.served.get(group);
    if (rt) {
      if (!types) this.served.set(group, (types = new Map()));
      types.set(key, rt);
    } else if (types?.delete(key) && types.size === 0) this.served.delete(group);
  }

  /** Takes the desired APIServices `names` from `next` (absent there: none desired); returns those that changed. */
  private replaceDesired(names: string[], next: Map<string, DesiredAPIService>): string[] {
    const changed = names.filter((name) => JSON.stringify(next.get(name)) !== JSON.stringify(this.desired.get(name)));
    for (const name of changed) {
      const desired = next.get(name);
      if (desired) this.desired.set(name, desired);
      else this.desired.delete(name);
    }
    return changed;
  }

  private enqueue(names: string[]): void {
    for (const name of names) if (name) this.queue.add(name);
    if (this.scheduled || this.queue.size === 0) return;
    this.scheduled = true;
    this.timers.after(0, () => {
      this.scheduled = false;
      void this.drain();
    });
  }

  /** Checks the queued names one by one (names queued meanwhile too); a failed one is queued again after a pause. */
  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.size > 0 && !this.timers.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        try {
          await this.check(name);
          this.synced.add(name);
        } catch (err) {
          log.error(`autoregister of APIService ${name} failed (${(err as Error).message}); trying again`);
          this.timers.after(retryMs, () => this.enqueue([name]));
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** kube's checkAPIService: what the stored APIService `name` needs, given what is desired of it. */
  private async check(name: string): Promise<void> {
    const desired = this.desired.get(name);
    const current = this.informer.current().get(name) as APIService | undefined;
    if (desired?.mode === 'onstart' && this.synced.has(name)) return;
    if (!current) {
      if (desired) await ignoring(['AlreadyExists'], () => this.client.create(structuredClone(desired.apiService)));
      return;
    }
    const managed = current.metadata?.labels?.[autoManagedLabel];
    // managed on start: one there at start whose group-version is no longer served (its runtime configuration
    // disabled it) is deleted, once; otherwise left as it is
    const stale = managed === 'onstart' && !desired && this.atStart.has(name) && !this.synced.has(name);
    if (managed !== 'true' && !stale) return;
    if (!desired) {
      await ignoring(['NotFound', 'Conflict'], () => this.client.delete('', name, { uid: current.metadata?.uid ?? '' }));
      return;
    }
    if (sameSpec(current.spec, desired.apiService.spec)) return;
    await ignoring(['NotFound', 'Conflict'], () => this.client.update('', name, (latest) => ({ ...latest, spec: structuredClone(desired.apiService.spec) })));
  }
}

/** Runs `write`, taking the given Status reasons for success (another writer got there first). */
async function ignoring(reasons: string[], write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!(err instanceof ApiError && reasons.includes(err.reason))) throw err;
  }
}
