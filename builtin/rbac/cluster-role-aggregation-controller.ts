import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { Informer } from '../../core/contracts/informer.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import { labelSelectorFromObject } from '../../lib/k8s/labels/label-selector.js';
import { goCompare } from '../../lib/go/strings.js';
import { clusterRoleResource, clusterRoleResourceRef } from './rbac-resources.js';
import type { ClusterRole, PolicyRule } from './rbac-types.js';
import { log } from '../../lib/log/logger.js';

/** How long to wait before trying a role again after a failed write. */
const retryMs = 1000;

/**
 * kube's clusterrole-aggregation controller: a ClusterRole with an aggregationRule gets, as its rules, the union of the
 * rules of the other ClusterRoles its selectors match (in name order, each rule once), kept up to date as they change.
 */
export class ClusterRoleAggregationController implements Controller {
  readonly name = 'clusterrole-aggregation-controller';
  readonly resources = [clusterRoleResourceRef];
  private informer!: Informer;
  private client!: ResourceClient<ClusterRole>;
  private unsubscribe?: () => void;
  private readonly timers = new ControllerTimers();
  private scheduled = false;

  constructor(private readonly container: DependencyContainer) {}

  async start(): Promise<void> {
    this.client = this.container.resolve(Tokens.Objects).forResource<ClusterRole>(clusterRoleResourceRef, { fieldManager: 'clusterrole-aggregation-controller' });
    this.informer = this.container.resolve(Tokens.Informers).forResource(clusterRoleResource());
    this.unsubscribe = this.informer.subscribe(() => this.syncLater(0));
    await this.informer.synced();
    this.syncLater(0);
  }

  async stop(): Promise<void> {
    this.timers.stop();
    this.unsubscribe?.();
  }

  /** One pass over every aggregated role per batch of changes. */
  private syncLater(ms: number): void {
    if (this.scheduled || this.timers.stopped) return;
    this.scheduled = true;
    this.timers.after(ms, () => {
      this.scheduled = false;
      this.syncAll().catch((err: Error) => {
        log.error(`aggregating ClusterRoles failed (${err.message}); trying again`);
        this.syncLater(retryMs);
      });
    });
  }

  private async syncAll(): Promise<void> {
    const roles = [...this.informer.current().values()] as ClusterRole[];
    for (const role of roles) {
      if (!role.aggregationRule) continue;
      const rules = aggregatedRules(role, roles);
      if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) continue;
      await this.client.update('', role.metadata!.name!, (current) => ({ ...current, rules }));
    }
  }
}

/** The rules of the ClusterRoles any selector of `role` matches, `role` itself excepted. */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map(labelSelectorFromObject);
  const matched = all
    .filter((r) => r.metadata?.name !== role.metadata?.name && selectors.some((s) => s.matches(r.metadata?.labels ?? {})))
    .sort((a, b) => goCompare(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const r of matched) {
    for (const rule of r.rules ?? []) {
      const key = JSON.stringify(rule);
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(rule);
    }
  }
  return rules;
}
