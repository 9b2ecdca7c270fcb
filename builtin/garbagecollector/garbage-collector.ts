import { isDeepStrictEqual } from 'node:util';
import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { Informers } from '../../core/contracts/informer.js';
import type { ObjectClients, ObjectDeleteOptions, ResourceClient, ResourceClientOptions } from '../../core/contracts/object-client.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../lib/k8s/finalizers.js';
import { RetryingWorkQueue } from '../../lib/async/retrying-work-queue.js';
import { DependencyGraph, nodeOf, type GraphNode, type OwnerLink } from './dependency-graph.js';
import { AbsentOwners } from './absent-owners.js';
import { invalidNamespaceMessage, NamespacedOwnerOfClusterScopedObjectError, ownerState, UnresolvableOwnerError, type OwnerState } from './owner-references.js';
import { log } from '../../lib/log/logger.js';

/** Who the collector writes as: kube-controller-manager's garbage collector. */
const collectorClient: ResourceClientOptions = {
  user: {
    username: 'system:serviceaccount:kube-system:generic-garbage-collector',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  },
  fieldManager: 'kube-controller-manager',
};

type Outcome = 'done' | 'retry';

/** How many owners seen deleted are remembered (kube's absentOwnerCache size). */
const absentOwnersKept = 500;

/**
 * kube's garbage collector: follows the objects of every resource served (CRDs' included, as they come and go, and
 * resources with their own storage that list and watch)
 * into a graph of owner references, and
 * - deletes dependents whose owners are all gone (in the background; in the foreground when an owner being deleted in
 *   the foreground waits for them and they have dependents of their own),
 * - removes an owner's `foregroundDeletion` finalizer once no dependent with `blockOwnerDeletion` remains,
 * - removes the references to an owner with the `orphan` finalizer from its dependents, then the finalizer.
 * Owners are read live from storage before anything is deleted; the graph only says whom to look at.
 */
export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector';
  private registry!: ResourceRegistry;
  private objects!: ObjectClients;
  private informers!: Informers;
  private queue!: RetryingWorkQueue;
  private readonly graph = new DependencyGraph();
  /** The resources followed, by `group/plural`, with the function that stops following each. */
  private readonly followed = new Map<string, () => void>();
  /** Followed resources whose informer has not synced yet: until then the graph may miss dependents. */
  private readonly syncing = new Set<string>();
  /** Dependents with an owner of a kind not served: looked at again when the served resources change. */
  private readonly unresolved = new Set<string>();
  private readonly absent = new AbsentOwners(absentOwnersKept);
  /** Dependents already reported for an invalid reference (reported once). */
  private readonly reported = new Set<string>();
  private unsubscribeRegistry?: () => void;

  constructor(private readonly container: DependencyContainer) {}

  async start(): Promise<void> {
    this.registry = this.container.resolve(Tokens.Registry);
    this.objects = this.container.resolve(Tokens.Objects);
    this.informers = this.container.resolve(Tokens.Informers);
    this.queue = new RetryingWorkQueue((uid) => this.attemptToDelete(uid), {
      concurrency: 4,
      baseDelayMs: 100,
      maxDelayMs: 60_000,
      what: 'garbage collection of object',
    });
    this.unsubscribeRegistry = this.registry.onChange(({ previous, current }) => this.followServed(resourceKey((current ?? previous)!), current));
    this.followServedResources();
  }

  async stop(): Promise<void> {
    this.unsubscribeRegistry?.();
    this.queue?.stop();
    for (const unsubscribe of this.followed.values()) unsubscribe();
    this.followed.clear();
  }

  /**
   * Follows every resource that can be listed, watched and deleted — kept by kapi or by its own storage — as it is
   * served, and forgets one no longer served.
   */
  private followServedResources(): void {
    for (const rt of this.registry.all()) this.followServed(resourceKey(rt), rt);
  }

  /** Follows or forgets the resource `key` as it is served now (`rt`; undefined: no longer served). */
  private followServed(key: string, rt: ResourceType | undefined): void {
    const collectable = rt !== undefined && ['delete', 'list', 'watch'].every((verb) => rt.verbs.includes(verb));
    if (collectable && !this.followed.has(key)) this.follow(key, rt);
    const unsubscribe = this.followed.get(key);
    if (!collectable && unsubscribe) {
      unsubscribe();
      this.followed.delete(key);
      this.syncing.delete(key);
      // Not known gone: its objects are simply no longer seen (a deleted CRD's were deleted, and seen so, before).
      for (const node of this.graph.ofResource(key)) this.graph.delete(node.uid);
    }
    // An owner kind that was not served may be now.
    for (const uid of this.unresolved) this.queue.add(uid);
    this.unresolved.clear();
  }

  private follow(key: string, rt: ResourceType): void {
    const informer = this.informers.forResource(rt);
    const unsubscribe = informer.subscribe((events) => {
      for (const e of events) {
        if (e.type === 'DELETED') this.forget(e.object.metadata?.uid ?? '');
        else this.observe(key, e.object);
      }
    });
    this.followed.set(key, unsubscribe);
    this.syncing.add(key);
    void informer.synced().then(() => {
      if (this.followed.get(key) !== unsubscribe) return; // no longer followed
      this.syncing.delete(key);
      // The informer may have synced before we subscribed (another consumer asked for it first).
      for (const obj of informer.current().values()) this.observe(key, obj);
    });
  }

  /** An object as it is now: what changed for the collector decides whom to look at. */
  private observe(resource: string, obj: KubeObject): void {
    const node = nodeOf(resource, obj);
    if (!node) return;
    const { old, displaced } = this.graph.set(node);
    if (displaced) this.afterDeletion(displaced);
    if (old && isDeepStrictEqual(old, node)) return;
    if (node.deletingDependents || node.orphaning) this.queue.add(node.uid);
    else if (!node.deleting && node.owners.some((o) => !this.ownerLooksSolid(node, o))) this.queue.add(node.uid);
    // An owner now deleting in the foreground: its dependents go first.
    if (node.deletingDependents && !old?.deletingDependents) for (const dep of this.graph.dependents(node.uid)) this.queue.add(dep.uid);
    // Owners waiting for their dependents: this one may no longer block them.
    for (const owner of [...(old?.owners ?? []), ...node.owners]) if (this.graph.get(owner.uid)?.deletingDependents) this.queue.add(owner.uid);
  }

  /** Whether the graph already holds a live owner this reference can match (then there is nothing to check). */
  private ownerLooksSolid(dependent: GraphNode, ref: OwnerLink): boolean {
    const owner = this.graph.get(ref.uid);
    return owner !== undefined && owner.name === ref.name && !owner.deleting && (owner.namespace === '' || owner.namespace === dependent.namespace);
  }

  private forget(uid: string): void {
    this.unresolved.delete(uid);
    this.reported.delete(uid);
    const node = this.graph.delete(uid);
    if (node) this.afterDeletion(node);
  }

  /** An object is gone: its dependents may have lost their last owner, its owners may wait for it no longer. */
  private afterDeletion(node: GraphNode): void {
    this.absent.add(node.uid, node.namespace);
    for (const dep of this.graph.dependents(node.uid)) this.queue.add(dep.uid);
    for (const owner of node.owners) if (this.graph.get(owner.uid)?.deletingDependents) this.queue.add(owner.uid);
  }

  /** kube's attemptToDeleteItem: one look at one object, read live from storage. */
  private async attemptToDelete(uid: string): Promise<Outcome> {
    const node = this.graph.get(uid);
    const client = node && this.clientFor(node);
    if (!node || !client) return 'done';
    const live = await client.get(node.namespace, node.name);
    if (!live || live.metadata?.uid !== uid) {
      this.forget(uid); // gone, or replaced: its informer will tell the rest
      return 'done';
    }
    const current = nodeOf(node.resource, live)!;
    if (current.deletingDependents) return this.processDeletingDependents(current, client);
    if (current.orphaning) return this.orphanDependents(current, client);
    if (current.deleting || current.owners.length === 0) return 'done';

    let states: OwnerState[];
    try {
      states = await Promise.all(
        current.owners.map((ref) => (this.absent.has(ref.uid, current.namespace) ? 'dangling' : ownerState(this.registry, this.objects, current.namespace, ref))),
      );
    } catch (err) {
      if (err instanceof UnresolvableOwnerError) {
        this.unresolved.add(uid);
        return 'retry';
      }
      if (err instanceof NamespacedOwnerOfClusterScopedObjectError) {
        this.report(current, err.message);
        return 'done'; // cannot resolve on retry
      }
      throw err;
    }
    current.owners.forEach((ref, i) => {
      const seen = this.graph.get(ref.uid);
      if (states[i] === 'dangling' && seen && seen.namespace !== '' && seen.namespace !== current.namespace) {
        this.report(current, invalidNamespaceMessage(current.namespace, ref)); // an owner in another namespace
      }
    });
    const solid = current.owners.filter((_, i) => states[i] === 'solid');
    const stale = current.owners.filter((_, i) => states[i] !== 'solid');
    const waiting = current.owners.filter((_, i) => states[i] === 'waiting');
    if (solid.length > 0) {
      // Kept by a live owner: only the references to owners that are gone or waiting for it go.
      if (stale.length > 0) await this.editOwnerReferences(client, current, (refs) => refs.filter((r) => !stale.some((s) => s.uid === r.uid)));
      return 'done';
    }
    if (waiting.length > 0 && this.graph.hasDependents(uid)) {
      // An owner waits for it, and it has dependents of its own: it goes in the foreground too. A dependent of it also
      // waiting in the foreground may be its owner as well (a cycle): it stops blocking its owners first.
      if (this.graph.dependents(uid).some((dep) => dep.deletingDependents)) {
        await this.editOwnerReferences(client, current, (refs) => refs.map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r)));
      }
      return this.deleteObject(client, current, 'Foreground');
    }
    const finalizers = live.metadata!.finalizers ?? [];
    const policy = finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS) ? 'Orphan' : finalizers.includes(FINALIZER_DELETE_DEPENDENTS) ? 'Foreground' : 'Background';
    return this.deleteObject(client, current, policy);
  }

  /** An owner deleting in the foreground: its finalizer goes once no dependent blocks it (others are being deleted). */
  private async processDeletingDependents(owner: GraphNode, client: ResourceClient): Promise<Outcome> {
    if (this.syncing.size > 0) return 'retry'; // the graph may not know all its dependents yet
    const blocking = this.graph.dependents(owner.uid).filter((dep) => dep.owners.some((o) => o.uid === owner.uid && o.blockOwnerDeletion));
    if (blocking.length === 0) return this.removeFinalizer(client, owner, FINALIZER_DELETE_DEPENDENTS);
    for (const dep of blocking) if (!dep.deletingDependents) this.queue.add(dep.uid);
    return 'done'; // looked at again when a blocking dependent changes
  }

  /** An owner deleting with the orphan policy: its dependents lose their references to it, then it goes. */
  private async orphanDependents(owner: GraphNode, client: ResourceClient): Promise<Outcome> {
    if (this.syncing.size > 0) return 'retry';
    for (const dep of this.graph.dependents(owner.uid)) {
      const depClient = this.clientFor(dep);
      if (depClient) await this.editOwnerReferences(depClient, dep, (refs) => refs.filter((r) => r.uid !== owner.uid));
    }
    return this.removeFinalizer(client, owner, FINALIZER_ORPHAN_DEPENDENTS);
  }

  private async deleteObject(client: ResourceClient, node: GraphNode, propagationPolicy: ObjectDeleteOptions['propagationPolicy']): Promise<Outcome> {
    await ignoreGone(client.delete(node.namespace, node.name, { propagationPolicy, uid: node.uid }));
    return 'done';
  }

  private async removeFinalizer(client: ResourceClient, node: GraphNode, finalizer: string): Promise<Outcome> {
    await this.updateSame(client, node, (obj) => {
      obj.metadata!.finalizers = obj.metadata!.finalizers?.filter((f) => f !== finalizer);
    });
    return 'done';
  }

  private editOwnerReferences(client: ResourceClient, node: GraphNode, edit: (refs: Record<string, unknown>[]) => Record<string, unknown>[]): Promise<void> {
    return this.updateSame(client, node, (obj) => {
      const refs = edit((obj.metadata!.ownerReferences ?? []) as Record<string, unknown>[]);
      if (refs.length > 0) obj.metadata!.ownerReferences = refs;
      else delete obj.metadata!.ownerReferences;
    });
  }

  /** Updates the object of `node` unless it is gone or another object took its name. */
  private async updateSame(client: ResourceClient, node: GraphNode, change: (obj: KubeObject) => void): Promise<void> {
    await ignoreGone(
      client.update(node.namespace, node.name, (obj) => {
        if (obj.metadata?.uid !== node.uid) throw new ObjectReplacedError();
        change(obj);
        return obj;
      }),
    );
  }

  private clientFor(node: GraphNode): ResourceClient | undefined {
    const slash = node.resource.lastIndexOf('/');
    const rt = this.registry.get(node.resource.slice(0, slash), node.resource.slice(slash + 1));
    return rt && this.objects.forResource(rt, collectorClient);
  }

  /** kube records a warning Event (OwnerRefInvalidNamespace); kapi logs it, once per object. */
  private report(node: GraphNode, message: string): void {
    if (this.reported.has(node.uid)) return;
    this.reported.add(node.uid);
    const name = node.namespace ? `${node.namespace}/${node.name}` : node.name;
    log.warn(`garbage collector: OwnerRefInvalidNamespace on ${node.resource} ${name}: ${message}`);
  }
}

/** The object a write was meant for is no longer there under its name. */
class ObjectReplacedError extends Error {}

/** Waits for a write; the object being gone (404, replaced, or a uid precondition failing with 409) is fine. */
async function ignoreGone(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (err instanceof ObjectReplacedError) return;
    if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
    throw err;
  }
}

function resourceKey(rt: ResourceType): string {
  return `${rt.group}/${rt.names.plural}`;
}
