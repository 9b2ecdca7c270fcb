import type { DependencyContainer } from 'tsyringe';
import type { RemoteAPIService } from '../../core/contracts/api-services.js';
import type { Informer } from '../../core/contracts/informer.js';
import { registeredServiceResolver } from '../../core/contracts/registered-service-resolver.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { RetryingWorkQueue } from '../../lib/async/retrying-work-queue.js';
import type { BackendRoute } from './backend-get.js';
import { remoteAPIService } from './apiservice-registry.js';
import { apiServiceResource } from './apiservice-resource.js';
import { availableCondition, type APIService } from './apiservice-types.js';

/** kube's aggregated discovery and OpenAPI controllers read every backend again this often. */
export const remoteResyncMs = 60_000;

/** A service-backed APIService as the aggregation layer reads its backend: through the proxy, so only when Available. */
export interface FollowedAPIService {
  remote: RemoteAPIService;
  available: boolean;
}

/**
 * What kube's aggregator does for its discovery manager and OpenAPI controllers: every change of an APIService
 * (spec or status, so a backend turning Available is read at once) and every `resyncMs` queue it; `sync` is then
 * called with the service-backed APIService, or undefined when it is gone or local. Used as a controller's engine.
 */
export class RemoteAPIServiceFollower {
  private informer?: Informer;
  private unsubscribe?: () => void;
  private resync?: NodeJS.Timeout;
  private readonly queue: RetryingWorkQueue;
  private backendRoute?: BackendRoute;

  constructor(
    private readonly container: DependencyContainer,
    what: string,
    private readonly sync: (name: string, followed: FollowedAPIService | undefined) => Promise<void>,
    private readonly resyncMs = remoteResyncMs,
  ) {
    this.queue = new RetryingWorkQueue((name) => this.work(name), { concurrency: 4, baseDelayMs: 5, maxDelayMs: 30_000, what });
  }

  /** How the backends are reached (known once started). */
  get route(): BackendRoute {
    return this.backendRoute!;
  }

  async start(): Promise<void> {
    this.backendRoute = { services: registeredServiceResolver(this.container), client: this.container.resolve(Tokens.Config).proxyClient };
    this.informer = this.container.resolve(Tokens.Informers).forResource(apiServiceResource());
    this.unsubscribe = this.informer.subscribe((events) => events.forEach((e) => this.queue.add(e.object.metadata!.name!)));
    await this.informer.synced();
    this.enqueueAll();
    this.resync = setInterval(() => this.enqueueAll(), this.resyncMs);
  }

  stop(): void {
    clearInterval(this.resync);
    this.queue.stop();
    this.unsubscribe?.();
  }

  private enqueueAll(): void {
    for (const name of this.informer?.current().keys() ?? []) this.queue.add(name);
  }

  private async work(name: string): Promise<'done'> {
    const apiService = this.informer?.current().get(name) as APIService | undefined;
    const remote = apiService && remoteAPIService(apiService);
    await this.sync(name, remote && { remote, available: availableCondition(apiService)?.status === 'True' });
    return 'done';
  }
}
