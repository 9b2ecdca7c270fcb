import type { DependencyContainer } from 'tsyringe';
import { isDeepStrictEqual } from 'node:util';
import type { Controller } from '../../core/contracts/controller.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import { turnShare } from '../../lib/async/turn-share.js';
import type { ObjectClients, ResourceClient } from '../../core/contracts/object-client.js';
import type { InformerEvent } from '../../core/contracts/informer.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { registeredServiceResolver } from '../../core/contracts/registered-service-resolver.js';
import type { ServiceResolver } from '../../core/contracts/service-resolver.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { crdCleanupFinalizer, crdResource, crdResourceRef } from './crd-resource.js';
import { crdToResourceType } from './crd-to-resource-type.js';
import { condition, type Crd, type CrdCondition, type CrdStatus } from './crd-types.js';
import { judgeNames } from './crd-names.js';
import { AcceptedNamesIndex } from './accepted-names-index.js';
import { apiApprovalCondition } from './crd-api-approval.js';
import { log } from '../../lib/log/logger.js';

const retryMs = 500;
/** Reconciles at once (see pump). */
const workers = 8;

/**
 * Follows CRDs in storage (not in this process), so every kapi instance on the same storage serves the same CRDs:
 * judges names (NamesAccepted), establishes them (Established) and registers their resources; on deletion removes
 * every custom resource, then the cleanup finalizer.
 */
export class CrdController implements Controller {
  readonly name = 'crd-controller';
  readonly resources = [crdResourceRef];
  private objects!: ObjectClients;
  private registry!: ResourceRegistry;
  private services!: ServiceResolver;
  private crdClient!: ResourceClient<Crd>;
  private unsubscribe?: () => void;
  private readonly crds = new Map<string, Crd>();
  private readonly acceptedNames = new AcceptedNamesIndex();
  /** What each served CRD's resource was built from (see serve). */
  private readonly servedFrom = new Map<string, unknown[]>();
  private readonly queue = new Set<string>();
  /** Reconciles in work, and the groups of their CRDs. */
  private active = 0;
  private readonly busyGroups = new Set<string>();
  private readonly idle: (() => void)[] = [];
  private readonly timers = new ControllerTimers();

  constructor(private readonly container: DependencyContainer) {}

  async start(): Promise<void> {
    this.objects = this.container.resolve(Tokens.Objects);
    this.registry = this.container.resolve(Tokens.Registry);
    this.services = registeredServiceResolver(this.container);
    this.crdClient = this.objects.forResource<Crd>(crdResourceRef);
    const informer = this.container.resolve(Tokens.Informers).forResource(crdResource());
    this.unsubscribe = informer.subscribe((events) => this.observe(events));
    await informer.synced();
    // the informer may have synced before we subscribed (another consumer asked for it first)
    this.observe([...informer.current().values()].map((object) => ({ type: 'ADDED' as const, object })));
    // CRDs established before are served before the server answers its first request.
    for (const crd of this.crds.values()) if (condition(crd, 'Established')?.status === 'True') this.serve(crd);
    await this.drained();
  }

  /**
   * CRDs as storage has them, through the CRD informer: CRDs created, changed or deleted through any instance (also
   * while storage was unreachable: the informer re-syncs and reports the differences) are reconciled.
   */
  private observe(events: InformerEvent[]): void {
    // the whole batch first: names are judged against every CRD known, not the part of the batch seen so far
    for (const e of events) {
      const crd = e.object as Crd;
      const name = crd.metadata!.name!;
      if (e.type === 'DELETED') {
        this.crds.delete(name);
        this.acceptedNames.delete(name);
        this.servedFrom.delete(name);
        this.unregister(crd);
      } else {
        this.crds.set(name, crd);
        this.acceptedNames.set(crd);
      }
    }
    for (const e of events) this.enqueue(e.object.metadata!.name!);
  }

  async stop(): Promise<void> {
    this.timers.stop();
    this.unsubscribe?.();
  }

  private enqueue(name: string): void {
    if (this.timers.stopped) return;
    this.queue.add(name);
    this.pump();
  }

  /**
   * Starts reconciles of queued CRDs, up to `workers` at once, so that their status writes share storage commits; one
   * CRD of a group at a time, as names are judged against the group's other CRDs. Each starts on its share of a turn
   * of the event loop (turnShare): a reconcile that writes nothing does not wait for I/O, and thousands of them in a
   * row would hold the loop for seconds.
   */
  private pump(): void {
    while (this.active < workers && !this.timers.stopped) {
      const name = this.nextReady();
      if (name === undefined) break;
      const group = this.crds.get(name)?.spec.group ?? '';
      this.queue.delete(name);
      this.busyGroups.add(group);
      this.active++;
      void this.work(name).finally(() => {
        this.busyGroups.delete(group);
        this.active--;
        this.pump();
      });
    }
    if (this.active === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** The first queued CRD of a group no reconcile is working on. */
  private nextReady(): string | undefined {
    for (const name of this.queue) if (!this.busyGroups.has(this.crds.get(name)?.spec.group ?? '')) return name;
    return undefined;
  }

  /** Resolves once nothing is queued or in work (retries waiting for their time aside). */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      this.idle.push(resolve);
      this.pump();
    });
  }

  private async work(name: string): Promise<void> {
    await turnShare();
    try {
      if (!(await this.reconcile(name))) this.later(name);
    } catch (err) {
      if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) log.error(`CRD ${name}`, { err });
      this.later(name);
    }
  }

  private later(name: string): void {
    this.timers.after(retryMs, () => {
      if (this.crds.has(name)) this.enqueue(name);
    });
  }

  /** Returns false when the CRD needs another look later (custom resources still finalizing). */
  private async reconcile(name: string): Promise<boolean> {
    const crd = this.crds.get(name);
    if (!crd) return true;
    if (crd.metadata?.deletionTimestamp) {
      this.serveTerminating(crd);
      return this.cleanUp(crd);
    }
    const verdict = judgeNames(crd, this.acceptedNames.takenByOthers(crd.spec.group, name));
    const established = verdict.condition.status === 'True' || condition(crd, 'Established')?.status === 'True';
    const approval = apiApprovalCondition(crd);
    const status: CrdStatus = {
      ...crd.status,
      acceptedNames: verdict.acceptedNames,
      conditions: mergeConditions(crd.status?.conditions ?? [], [
        verdict.condition,
        established
          ? { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }
          : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' },
        ...(approval ? [approval] : []),
      ]),
    };
    // Served before it is reported Established, as kube serves an Established CRD's resource at once.
    if (established) this.serve({ ...crd, status });
    // The write comes back as a watch event and is reconciled then.
    if (!isDeepStrictEqual(status, crd.status)) await this.writeStatus(name, status);
    return true;
  }

  /**
   * Registers the resource of an established CRD, unless it is served from the same spec, accepted names and
   * annotations already: a new type object for the same type would have every cache of it (OpenAPI) built again.
   */
  private serve(crd: Crd): void {
    const name = crd.metadata!.name!;
    const from = [crd.spec, crd.status?.acceptedNames, crd.metadata?.annotations];
    const served = this.registry.get(crd.spec.group, crd.status?.acceptedNames?.plural || crd.spec.names.plural);
    if (served?.definedBy?.crd === name && isDeepStrictEqual(this.servedFrom.get(name), from)) return;
    this.servedFrom.set(name, from);
    this.registry.set(crdToResourceType(crd, this.services));
  }

  /** A deleting CRD's resource stays served (its objects can be read, changed and deleted) but refuses creates, as kube's. */
  private serveTerminating(crd: Crd): void {
    const name = crd.metadata!.name!;
    const served = this.registry.get(crd.spec.group, crd.status?.acceptedNames?.plural || crd.spec.names.plural);
    if (served?.definedBy?.crd === name && !served.definedBy.terminating) this.registry.set({ ...served, definedBy: { crd: name, terminating: true } });
  }

  /** Deletes every custom resource of a deleting CRD, then lets the CRD go by removing its cleanup finalizer. */
  private async cleanUp(crd: Crd): Promise<boolean> {
    const name = crd.metadata!.name!;
    const resourceType = crdToResourceType(crd, this.services);
    let remaining = 0;
    // A CRD naming a resource kapi serves itself never served it: the objects under that key are the built-in's.
    const served = this.registry.get(resourceType.group, resourceType.names.plural);
    const shadowed = served !== undefined && served.definedBy?.crd !== name;
    // The served type carries the strategies registered for the kind (their deletion hooks and finalizers).
    // Deleted as kube's CRD finalizer deletes them, in storage: no webhook or policy can hold a CRD's deletion back.
    const client = this.objects.forResource(served && !shadowed ? served : resourceType, { skipAdmission: true });
    for (const obj of shadowed ? [] : await client.list()) {
      const meta = obj.metadata!;
      if (meta.deletionTimestamp) {
        remaining++;
        continue;
      }
      try {
        if (!(await client.delete(meta.namespace ?? '', meta.name!)).deleted) remaining++;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
    if (remaining > 0) return false;
    await this.crdClient.update('', name, (current) => {
      current.metadata!.finalizers = (current.metadata!.finalizers ?? []).filter((f) => f !== crdCleanupFinalizer);
      return current;
    });
    return true;
  }

  private async writeStatus(name: string, status: CrdStatus): Promise<void> {
    await this.crdClient.update('', name, (current) => ({ ...current, status }), { subresource: 'status' });
  }

  private unregister(crd: Crd): void {
    const plural = crd.status?.acceptedNames?.plural || crd.spec.names.plural;
    const served = this.registry.get(crd.spec.group, plural);
    if (served?.definedBy?.crd === crd.metadata!.name!) this.registry.remove(crd.spec.group, plural);
  }
}

/** Replaces conditions by type, keeping lastTransitionTime when the status did not change. */
function mergeConditions(existing: CrdCondition[], updates: Omit<CrdCondition, 'lastTransitionTime'>[]): CrdCondition[] {
  const result = existing.map((c) => ({ ...c }));
  for (const u of updates) {
    const i = result.findIndex((c) => c.type === u.type);
    const old = i >= 0 ? result[i] : undefined;
    const next: CrdCondition = {
      type: u.type,
      status: u.status,
      lastTransitionTime: old && old.status === u.status && old.lastTransitionTime ? old.lastTransitionTime : formatDateRFC3339(new Date()),
      reason: u.reason,
      message: u.message,
    };
    if (i >= 0) result[i] = next;
    else result.push(next);
  }
  return result;
}
