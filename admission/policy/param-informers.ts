/**
 * The objects policies take their params from, per paramKind: a {@link ResourceInformer} for each kind some policy
 * uses (any resource the server serves, custom resources included), started on first use and stopped when no
 * policy needs it any more.
 */
import type { KVStore } from '../../core/contracts/kv-store.js';
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import { ResourceInformer } from '../../core/store/resource-informer.js';

/** How long a request waits for a new informer's first list (kube waits 1 s for the informer to sync). */
const SYNC_WAIT_MS = 1000;

export interface ParamSource {
  rt: ResourceType;
  /** The objects, keyed `namespace/name`; undefined until the first list finished within the wait. */
  objects(): Promise<ReadonlyMap<string, KubeObject> | undefined>;
}

class ParamInformer implements ParamSource {
  private synced = false;
  private readonly sync: Promise<void>;
  private readonly informer: ResourceInformer;

  constructor(
    kv: () => KVStore,
    readonly rt: ResourceType,
  ) {
    this.informer = new ResourceInformer(kv, rt, () => {});
    this.sync = this.informer.start().then(
      () => {
        this.synced = true;
      },
      (err: Error) => console.error(`kapi: params of ${rt.names.plural}: ${err.message}`),
    );
  }

  async objects(): Promise<ReadonlyMap<string, KubeObject> | undefined> {
    if (!this.synced) await Promise.race([this.sync, new Promise((r) => setTimeout(r, SYNC_WAIT_MS).unref())]);
    return this.synced ? this.informer.current() : undefined;
  }

  /** Also once the first list is done, so that a watch it started then does not outlive the informer. */
  async stop(): Promise<void> {
    await this.informer.stop();
    await this.sync;
    await this.informer.stop();
  }
}

/** "group/version" → group and version (kube's schema.ParseGroupVersion). */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export class ParamInformers {
  private readonly informers = new Map<ResourceType, ParamInformer>();

  constructor(
    private readonly kv: () => KVStore,
    private readonly registry: () => ResourceRegistry,
  ) {}

  /** The served resource of a paramKind (kube's RESTMapping), or undefined. */
  resourceFor(paramKind: { apiVersion: string; kind: string }): ResourceType | undefined {
    const { group, version } = parseApiVersion(paramKind.apiVersion);
    return this.registry()
      .all()
      .find((rt) => rt.group === group && rt.names.kind === paramKind.kind && rt.versions.some((v) => v.name === version && v.served));
  }

  source(rt: ResourceType): ParamSource {
    let informer = this.informers.get(rt);
    if (!informer) {
      informer = new ParamInformer(this.kv, rt);
      this.informers.set(rt, informer);
    }
    return informer;
  }

  /** Stops the informers of kinds no policy uses any more (or whose resource type was replaced). */
  retain(inUse: ReadonlySet<ResourceType>): void {
    for (const [rt, informer] of this.informers) {
      if (inUse.has(rt)) continue;
      this.informers.delete(rt);
      void informer.stop();
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
    this.informers.clear();
  }
}
