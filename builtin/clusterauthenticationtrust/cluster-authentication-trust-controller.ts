import type { DependencyContainer } from 'tsyringe';
import { ApiError } from '../../core/contracts/api-error.js';
import type { Controller } from '../../core/contracts/controller.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import {
  authenticationConfigMap,
  clusterAuthenticationData,
  combineClusterAuthenticationInfo,
  readClusterAuthenticationInfo,
  type ClusterAuthenticationInfo,
} from '../../lib/k8s/cluster-authentication-info.js';
import { configMapResource } from '../configmaps/configmap-resource.js';
import { namespaceResourceRef } from '../namespaces/namespace-resource.js';
import { log } from '../../lib/log/logger.js';

/** kube's controller re-checks once a minute, whatever it has seen. */
const resyncMs = 60_000;
/** How long to wait before trying again after a failed write. */
const retryMs = 1000;

type ConfigMap = KubeObject & { data?: Record<string, string> };

/**
 * kube-apiserver's cluster_authentication_trust_controller: keeps ConfigMap `kube-system/extension-apiserver-authentication`
 * telling extension API servers which client CA and front-proxy configuration this server trusts. What it finds there
 * is combined with what this server requires (see combineClusterAuthenticationInfo); it writes only on a difference,
 * at start (before serving), whenever the ConfigMap changes, and once a minute.
 */
export class ClusterAuthenticationTrustController implements Controller {
  readonly name = 'cluster_authentication_trust_controller';
  readonly resources = [{ group: '', resource: 'configmaps' }, namespaceResourceRef];
  private readonly timers = new ControllerTimers();
  private unsubscribe?: () => void;
  private scheduled = false;

  /** `required`: what this server trusts at the time of a sync. */
  constructor(
    private readonly container: DependencyContainer,
    private readonly required: () => ClusterAuthenticationInfo,
  ) {}

  async start(): Promise<void> {
    const informer = this.container.resolve(Tokens.Informers).forResource(configMapResource());
    this.unsubscribe = informer.subscribe((events) => {
      const ours = events.some((e) => e.object.metadata?.namespace === authenticationConfigMap.namespace && e.object.metadata?.name === authenticationConfigMap.name);
      if (ours) this.syncLater(0);
    });
    try {
      await this.sync();
    } catch (err) {
      log.error(`publishing ${authenticationConfigMap.namespace}/${authenticationConfigMap.name} failed (${(err as Error).message}); trying again`);
      this.syncLater(retryMs);
    }
    this.resync();
  }

  async stop(): Promise<void> {
    this.timers.stop();
    this.unsubscribe?.();
  }

  private resync(): void {
    this.timers.after(resyncMs, () => {
      this.syncLater(0);
      this.resync();
    });
  }

  private syncLater(ms: number): void {
    if (this.scheduled || this.timers.stopped) return;
    this.scheduled = true;
    this.timers.after(ms, () => {
      this.scheduled = false;
      this.sync().catch((err: Error) => {
        log.error(`publishing ${authenticationConfigMap.namespace}/${authenticationConfigMap.name} failed (${err.message}); trying again`);
        this.syncLater(retryMs);
      });
    });
  }

  private async sync(): Promise<void> {
    const objects = this.container.resolve(Tokens.Objects);
    const configMaps = objects.forResource<ConfigMap>({ group: '', resource: 'configmaps' }, { fieldManager: 'kube-apiserver' });
    const { namespace, name } = authenticationConfigMap;
    const existing = await configMaps.get(namespace, name);
    const data = this.desiredData(existing?.data ?? {});
    if (sameData(data, existing?.data ?? {})) return;
    await ensureNamespace(this.container, namespace);
    if (!existing) {
      try {
        await configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name }, data });
        return;
      } catch (err) {
        if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err; // another server published first
      }
    }
    await configMaps.update(namespace, name, (current) => ({ ...current, data: this.desiredData(current.data ?? {}) }));
  }

  private desiredData(current: Readonly<Record<string, string>>): Record<string, string> {
    return clusterAuthenticationData(combineClusterAuthenticationInfo(readClusterAuthenticationInfo(current), this.required(), new Date()));
  }
}

function sameData(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** As kube's controller: the namespace is created when missing. */
async function ensureNamespace(container: DependencyContainer, name: string): Promise<void> {
  const namespaces = container.resolve(Tokens.Objects).forResource(namespaceResourceRef);
  if (await namespaces.get('', name)) return;
  try {
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
  }
}
