/**
 * The objects policies take their params from, per paramKind: the server's shared informer of that kind (any
 * resource the server serves, custom resources included), started on first use.
 */
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { Informer, Informers } from '../../core/contracts/informer.js';

/** How long a request waits for a new informer's first list (kube waits 1 s for the informer to sync). */
const SYNC_WAIT_MS = 1000;

export interface ParamSource {
  rt: ResourceType;
  /** The objects, keyed `namespace/name`; undefined until the first list finished within the wait. */
  objects(): Promise<ReadonlyMap<string, KubeObject> | undefined>;
}

class ParamInformer implements ParamSource {
  constructor(
    private readonly informer: Informer,
    readonly rt: ResourceType,
  ) {}

  async objects(): Promise<ReadonlyMap<string, KubeObject> | undefined> {
    let synced = false;
    let timer: NodeJS.Timeout | undefined;
    const sync = this.informer.synced().then(() => (synced = true));
    await Promise.race([sync, new Promise((r) => (timer = setTimeout(r, SYNC_WAIT_MS)))]);
    clearTimeout(timer);
    return synced ? this.informer.current() : undefined;
  }
}

/** "group/version" → group and version (kube's schema.ParseGroupVersion). */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export class ParamInformers {
  constructor(
    private readonly informers: () => Informers,
    private readonly registry: () => ResourceRegistry,
  ) {}

  /** The served resource of a paramKind (kube's RESTMapping), or undefined. */
  resourceFor(paramKind: { apiVersion: string; kind: string }): ResourceType | undefined {
    const { group, version } = parseApiVersion(paramKind.apiVersion);
    return this.registry()
      .all()
      .find((rt) => rt.group === group && rt.names.kind === paramKind.kind && rt.versions.some((v) => v.name === version && v.served));
  }

  /** The params' source of a policy's paramKind: undefined without one, kube's error text when the kind is not served. */
  sourceFor(paramKind: { apiVersion: string; kind: string } | undefined): ParamSource | undefined | string {
    if (!paramKind) return undefined;
    const rt = this.resourceFor(paramKind);
    if (!rt) {
      const { apiVersion, kind } = paramKind;
      return `failed to find resource referenced by paramKind: '${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}'`;
    }
    return this.source(rt);
  }

  source(rt: ResourceType): ParamSource {
    return new ParamInformer(this.informers().forResource(rt), rt);
  }
}

/** Starts following the params of a source's policies as soon as the policies are in force, before requests need them. */
export function followParamsInUse(
  source: { readonly hooks: readonly { policy: { paramKind?: { apiVersion: string; kind: string } } }[]; onChange(listener: () => void): void },
  params: ParamInformers,
): void {
  source.onChange(() => {
    const inUse = new Set<ResourceType>();
    for (const { policy } of source.hooks) {
      const rt = policy.paramKind && params.resourceFor(policy.paramKind);
      if (rt) inUse.add(rt);
    }
    for (const rt of inUse) params.source(rt);
  });
}
