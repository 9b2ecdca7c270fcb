import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import type { ObjectClients, ResourceClient } from '../../core/contracts/object-client.js';
import type { Informer } from '../../core/contracts/informer.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { RuntimeConfigError } from '../../core/contracts/runtime-config.js';
import type { NamespaceLookup } from '../../core/contracts/namespace-lookup.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { namespaceFinalizer, namespaceResource, namespaceResourceRef, systemNamespaces } from './namespace-resource.js';
import { log } from '../../lib/log/logger.js';
import { countRemaining, namespaceDeletionConditions, type NamespaceCondition, type RemainingContent } from './namespace-deletion-conditions.js';

/** How long to wait before looking again at a namespace whose content is still being finalized. */
const retryMs = 500;

/**
 * Creates the initial namespaces, and empties terminating namespaces: deletes everything in them, then removes the
 * `kubernetes` finalizer so the namespace itself goes away (kube's namespace controller).
 */
export class NamespaceController implements Controller, NamespaceLookup {
  readonly name = 'namespace-controller';
  private objects!: ObjectClients;
  private registry!: ResourceRegistry;
  private namespaces!: ResourceClient;
  private unsubscribe?: () => void;
  /** The namespaces as storage has them: a fast path for NamespaceLifecycle admission. */
  private informer!: Informer;
  private readonly working = new Set<string>();
  private readonly timers = new ControllerTimers();

  constructor(private readonly container: DependencyContainer) {}

  async start(): Promise<void> {
    this.objects = this.container.resolve(Tokens.Objects);
    this.registry = this.container.resolve(Tokens.Registry);
    // what namespaced objects and the NamespaceLifecycle admission plugin rely on (as the RBAC authorizer needs RBAC)
    if (!this.registry.get(namespaceResourceRef.group, namespaceResourceRef.resource)) {
      throw new RuntimeConfigError('the namespaces module needs namespaces (v1) served');
    }
    this.namespaces = this.objects.forResource(namespaceResourceRef);
    for (const name of systemNamespaces) await this.ensure(name);
    this.informer = this.container.resolve(Tokens.Informers).forResource(namespaceResource());
    this.unsubscribe = this.informer.subscribe((events) => {
      for (const e of events) if (e.type !== 'DELETED') this.consider(e.object);
    });
    await this.informer.synced();
    // the informer may have synced before we subscribed (another consumer asked for it first)
    for (const ns of this.informer.current().values()) this.consider(ns);
  }

  async stop(): Promise<void> {
    this.timers.stop();
    this.unsubscribe?.();
  }

  /**
   * The namespace, from the informer or else from storage (a namespace created a moment ago may not have reached
   * the informer yet).
   */
  async lookup(name: string): Promise<KubeObject | undefined> {
    return this.informer?.current().get(name) ?? this.namespaces.get('', name);
  }

  /** Creates a system namespace that is missing (as kube's bootstrap controller: a lookup first, a create only then). */
  private async ensure(name: string): Promise<void> {
    if (await this.namespaces.get('', name)) return;
    try {
      await this.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
    }
  }

  private consider(ns: KubeObject): void {
    const name = ns.metadata?.name;
    if (!name || !ns.metadata?.deletionTimestamp || this.working.has(name) || this.timers.stopped) return;
    this.working.add(name);
    void this.finalize(name).then(
      (done) => {
        this.working.delete(name);
        if (!done) this.later(name);
      },
      (err) => {
        this.working.delete(name);
        log.error(`emptying namespace ${name} failed`, { err });
        this.later(name);
      },
    );
  }

  private later(name: string): void {
    this.timers.after(retryMs, () => {
      this.namespaces.get('', name).then(
        (ns) => ns && this.consider(ns),
        () => this.later(name), // storage unavailable: look again later
      );
    });
  }

  /**
   * Deletes the namespace's content and reports what is left in its status conditions, as kube's namespace controller
   * does; true when it was empty and the finalizer is removed.
   */
  private async finalize(name: string): Promise<boolean> {
    const remaining: RemainingContent = { byResource: new Map(), byFinalizer: new Map() };
    for (const rt of this.registry.all()) {
      if (rt.scope !== 'Namespaced' || rt.storage) continue; // a resource with its own storage keeps its objects there
      const client = this.objects.forResource(rt);
      for (const obj of await client.list(name)) {
        let left: KubeObject | undefined = obj; // still there after this pass: deleting, waiting for its finalizers
        if (!obj.metadata?.deletionTimestamp) {
          try {
            const result = await client.delete(name, obj.metadata!.name!);
            left = result.deleted ? undefined : result.object;
          } catch (err) {
            if (!(err instanceof ApiError && err.code === 404)) throw err;
            left = undefined;
          }
        }
        if (!left) continue;
        countRemaining(remaining.byResource, `${rt.names.plural}.${rt.group}`);
        for (const finalizer of left.metadata?.finalizers ?? []) countRemaining(remaining.byFinalizer, finalizer);
      }
    }
    await this.reportRemaining(name, remaining);
    if (remaining.byResource.size > 0) return false;
    await this.updateNamespace(name, 'finalize', (ns) => {
      const spec = (ns.spec ?? {}) as { finalizers?: string[] };
      ns.spec = { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== namespaceFinalizer) };
    });
    return true;
  }

  /** Writes the namespace's deletion conditions when this pass changed them. */
  private async reportRemaining(name: string, remaining: RemainingContent): Promise<void> {
    const known = (this.informer.current().get(name)?.status ?? {}) as { conditions?: NamespaceCondition[] };
    if (!namespaceDeletionConditions(known.conditions ?? [], remaining)) return; // as written already
    await this.updateNamespace(name, 'status', (ns) => {
      const status = (ns.status ?? {}) as { conditions?: NamespaceCondition[] };
      const conditions = namespaceDeletionConditions(status.conditions ?? [], remaining);
      if (conditions) ns.status = { ...status, conditions };
    });
  }

  /** Changes the namespace through a subresource; one already gone is left alone. */
  private async updateNamespace(name: string, subresource: 'status' | 'finalize', change: (ns: KubeObject) => void): Promise<void> {
    try {
      await this.namespaces.update(
        '',
        name,
        (ns) => {
          change(ns);
          return ns;
        },
        { subresource },
      );
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }
}
