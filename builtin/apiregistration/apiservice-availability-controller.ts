import type { DependencyContainer } from 'tsyringe';
import { ApiError } from '../../core/contracts/api-error.js';
import type { Controller } from '../../core/contracts/controller.js';
import type { Informer } from '../../core/contracts/informer.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import type { ServiceResolver } from '../../core/contracts/service-resolver.js';
import { registeredServiceResolver } from '../../core/contracts/registered-service-resolver.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { RetryingWorkQueue } from '../../lib/async/retrying-work-queue.js';
import type { ProxyClientCertificate } from '../../lib/aggregator/backend-transport.js';
import { localAvailable, passedAvailable, serviceCondition, withAvailableCondition, type AvailableCondition } from './apiservice-available-condition.js';
import { discoveryCheck } from './discovery-check.js';
import { apiregistrationGroup, type APIService } from './apiservice-types.js';

/** kube's resync of the APIService informer: every APIService is checked again this often. */
export const defaultAvailabilityResyncMs = 30_000;

const noObjects: ReadonlyMap<string, KubeObject> = new Map();

/**
 * kube-aggregator's availability controllers (local and remote) in one: keeps each APIService's `Available` condition
 * (status subresource) — `Local` for those kapi serves itself; for those naming a Service, the Service and Endpoints
 * checks then a discovery GET on the backend (discovery-check.ts). Checked when an APIService, a Service or an
 * Endpoints changes, every `resyncMs`, and again with kube's backoff (5 ms doubling to 30 s) while discovery fails.
 * Written only when the condition changes.
 */
export class ApiServiceAvailabilityController implements Controller {
  readonly name = 'apiservice-availability-controller';
  private apiServices?: Informer;
  private services?: Informer;
  private endpoints?: Informer;
  private client!: ResourceClient<APIService>;
  private resolver!: ServiceResolver;
  private proxyClient?: ProxyClientCertificate;
  private readonly unsubscribes: (() => void)[] = [];
  private resync?: NodeJS.Timeout;
  private readonly queue = new RetryingWorkQueue((name) => this.sync(name), { concurrency: 8, baseDelayMs: 5, maxDelayMs: 30_000, what: 'checking the availability of APIService' });

  constructor(
    private readonly container: DependencyContainer,
    private readonly resyncMs = defaultAvailabilityResyncMs,
  ) {}

  async start(): Promise<void> {
    const registry = this.container.resolve(Tokens.Registry);
    const informers = this.container.resolve(Tokens.Informers);
    const apiServices = registry.lookup(apiregistrationGroup, 'v1', 'apiservices');
    if (!apiServices) return;
    this.proxyClient = this.container.resolve(Tokens.Config).proxyClient;
    this.resolver = registeredServiceResolver(this.container);
    this.client = this.container.resolve(Tokens.Objects).forResource<APIService>(apiServices, { fieldManager: 'kube-aggregator' });
    this.apiServices = informers.forResource(apiServices);
    const services = registry.lookup('', 'v1', 'services');
    const endpoints = registry.lookup('', 'v1', 'endpoints');
    this.services = services && informers.forResource(services);
    this.endpoints = endpoints && informers.forResource(endpoints);
    this.unsubscribes.push(this.apiServices.subscribe((events) => events.forEach((e) => this.queue.add(e.object.metadata!.name!))));
    for (const informer of [this.services, this.endpoints]) {
      if (informer) this.unsubscribes.push(informer.subscribe((events) => events.forEach((e) => this.enqueueFor(e.object))));
    }
    await Promise.all([this.apiServices.synced(), this.services?.synced(), this.endpoints?.synced()]);
    this.enqueueAll();
    this.resync = setInterval(() => this.enqueueAll(), this.resyncMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.resync);
    this.queue.stop();
    for (const u of this.unsubscribes.splice(0)) u();
  }

  private enqueueAll(): void {
    for (const name of this.apiServices?.current().keys() ?? []) this.queue.add(name);
  }

  /** The APIServices that route to a Service (or its Endpoints) that changed. */
  private enqueueFor(object: KubeObject): void {
    for (const [name, o] of this.apiServices?.current() ?? []) {
      const ref = (o as APIService).spec?.service;
      if (ref && ref.namespace === object.metadata?.namespace && ref.name === object.metadata?.name) this.queue.add(name);
    }
  }

  private async sync(name: string): Promise<'done' | 'retry'> {
    const apiService = this.apiServices?.current().get(name) as APIService | undefined;
    if (!apiService) return 'done';
    const condition = await this.availability(apiService);
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    if (withAvailableCondition(apiService, condition, now)) {
      try {
        await this.client.update('', name, (current) => ({ ...current, status: withAvailableCondition(current, condition, now) ?? current.status }), { subresource: 'status' });
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return 'done'; // deleted meanwhile
        throw err;
      }
    }
    // kube retries a failed discovery check with backoff, besides the resync
    return condition.reason === 'FailedDiscoveryCheck' ? 'retry' : 'done';
  }

  private async availability(apiService: APIService): Promise<AvailableCondition> {
    const spec = apiService.spec ?? {};
    if (!spec.service) return localAvailable;
    const blocked = serviceCondition(apiService, this.services?.current() ?? noObjects, this.endpoints?.current() ?? noObjects);
    if (blocked) return blocked;
    const service = { namespace: spec.service.namespace ?? '', name: spec.service.name ?? '', port: spec.service.port ?? 443 };
    const failure = await discoveryCheck({ service, group: spec.group ?? '', version: spec.version ?? '' }, this.resolver, this.proxyClient);
    return failure === undefined ? passedAvailable : { status: 'False', reason: 'FailedDiscoveryCheck', message: failure };
  }
}
