import type { DependencyContainer } from 'tsyringe';
import type { APIServiceRegistry, RemoteAPIService } from '../../core/contracts/api-services.js';
import type { Controller } from '../../core/contracts/controller.js';
import type { Informer } from '../../core/contracts/informer.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { goCompare } from '../../lib/go/strings.js';
import { apiServiceResource, apiServiceResourceRef } from './apiservice-resource.js';
import type { APIService } from './apiservice-types.js';

/** What the aggregation layer needs of a service-backed APIService, or undefined for a local one. */
export function remoteAPIService(apiService: APIService): RemoteAPIService | undefined {
  const spec = apiService.spec ?? {};
  const service = spec.service;
  if (!service) return undefined;
  return {
    name: apiService.metadata?.name ?? '',
    group: spec.group ?? '',
    version: spec.version ?? '',
    service: { namespace: service.namespace ?? '', name: service.name ?? '', port: service.port ?? 443 },
    ...(spec.caBundle ? { caBundle: Buffer.from(spec.caBundle, 'base64').toString('utf8') } : {}),
    insecureSkipTLSVerify: spec.insecureSkipTLSVerify ?? false,
    groupPriorityMinimum: spec.groupPriorityMinimum ?? 0,
    versionPriority: spec.versionPriority ?? 0,
  };
}

const gvKey = (group: string, version: string) => `${group}/${version}`;

/**
 * The service-backed APIServices, followed through the APIService informer (kube's aggregator keeps its proxy
 * handlers and discovery in step with its APIService lister the same way). Started as a controller, before serving.
 */
export class InformedAPIServiceRegistry implements APIServiceRegistry, Controller {
  readonly name = 'apiservice-registry';
  readonly resources = [apiServiceResourceRef];
  private informer?: Informer;
  private unsubscribe?: () => void;
  private byGroupVersion = new Map<string, RemoteAPIService>();
  private byName: RemoteAPIService[] = [];
  private readonly listeners = new Set<() => void>();
  private gen = 0;

  constructor(private readonly container: DependencyContainer) {}

  get generation(): number {
    return this.gen;
  }

  async start(): Promise<void> {
    await this.synced();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  async synced(): Promise<void> {
    await this.follow().synced();
    this.reindex();
  }

  remote(group: string, version: string): RemoteAPIService | undefined {
    return this.byGroupVersion.get(gvKey(group, version));
  }

  remotes(): readonly RemoteAPIService[] {
    return this.byName;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private follow(): Informer {
    if (!this.informer) {
      this.informer = this.container.resolve(Tokens.Informers).forResource(apiServiceResource());
      this.unsubscribe = this.informer.subscribe(() => this.reindex());
    }
    return this.informer;
  }

  /** Rebuilds the index from the informer's objects; listeners hear of it only when a remote one changed. */
  private reindex(): void {
    const remotes = [...this.informer!.current().values()]
      .map((o) => remoteAPIService(o as APIService))
      .filter((r): r is RemoteAPIService => r !== undefined)
      .sort((a, b) => goCompare(a.name, b.name));
    if (JSON.stringify(remotes) === JSON.stringify(this.byName)) return;
    this.byName = remotes;
    this.byGroupVersion = new Map(remotes.map((r) => [gvKey(r.group, r.version), r]));
    this.gen++;
    for (const listener of this.listeners) listener();
  }
}
