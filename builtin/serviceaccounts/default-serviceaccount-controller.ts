import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import { namespaceResource, namespaceResourceRef } from '../namespaces/namespace-resource.js';
import { serviceAccountResource, serviceAccountResourceRef } from './serviceaccount-resource.js';
import { log } from '../../lib/log/logger.js';

/** The account every namespace has. */
export const defaultServiceAccountName = 'default';
/** How long to wait before trying a namespace again after a failed create. */
const retryMs = 1000;

/**
 * kube's serviceaccounts-controller: makes sure every active namespace has the `default` ServiceAccount — in the
 * namespaces there at start, in each new one, and again when it is deleted. Terminating namespaces are left alone.
 */
export class DefaultServiceAccountController implements Controller {
  readonly name = 'serviceaccounts-controller';
  readonly resources = [serviceAccountResourceRef, namespaceResourceRef];
  private accounts!: ResourceClient;
  private namespaces!: ResourceClient;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly working = new Set<string>();
  private readonly timers = new ControllerTimers();

  constructor(private readonly container: DependencyContainer) {}

  async start(): Promise<void> {
    const objects = this.container.resolve(Tokens.Objects);
    this.accounts = objects.forResource(serviceAccountResourceRef);
    this.namespaces = objects.forResource(namespaceResourceRef);
    const informers = this.container.resolve(Tokens.Informers);
    const namespaceInformer = informers.forResource(namespaceResource());
    const accountInformer = informers.forResource(serviceAccountResource());
    this.unsubscribe.push(
      namespaceInformer.subscribe((events) => {
        for (const e of events) if (e.type !== 'DELETED') this.consider(e.object);
      }),
      accountInformer.subscribe((events) => {
        for (const e of events) {
          const meta = e.object.metadata;
          if (e.type === 'DELETED' && meta?.name === defaultServiceAccountName && meta.namespace) this.ensureLater(meta.namespace, 0);
        }
      }),
    );
    await namespaceInformer.synced();
    for (const ns of namespaceInformer.current().values()) this.consider(ns);
  }

  async stop(): Promise<void> {
    this.timers.stop();
    for (const u of this.unsubscribe) u();
  }

  private consider(ns: KubeObject): void {
    const name = ns.metadata?.name;
    if (name && isActive(ns)) this.ensureLater(name, 0);
  }

  private ensureLater(namespace: string, ms: number): void {
    if (this.working.has(namespace) || this.timers.stopped) return;
    this.working.add(namespace);
    this.timers.after(ms, () => {
      this.ensure(namespace).then(
        () => this.working.delete(namespace),
        (err: Error) => {
          this.working.delete(namespace);
          log.error(`creating the default ServiceAccount in namespace ${namespace} failed (${err.message}); trying again`);
          this.ensureLater(namespace, retryMs);
        },
      );
    });
  }

  /** Creates `default` when the namespace is active and has none (a lookup first, as kube's controller lists first). */
  private async ensure(namespace: string): Promise<void> {
    const ns = await this.namespaces.get('', namespace);
    if (!ns || !isActive(ns)) return;
    if (await this.accounts.get(namespace, defaultServiceAccountName)) return;
    try {
      await this.accounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: defaultServiceAccountName, namespace } });
    } catch (err) {
      // created meanwhile, or the namespace started terminating: nothing to do
      if (err instanceof ApiError && (err.reason === 'AlreadyExists' || err.reason === 'Forbidden' || err.code === 404)) return;
      throw err;
    }
  }
}

function isActive(ns: KubeObject): boolean {
  return !ns.metadata?.deletionTimestamp && (ns.status as { phase?: string } | undefined)?.phase !== 'Terminating';
}
