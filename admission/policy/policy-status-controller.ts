/**
 * kube's ValidatingAdmissionPolicy status controller: when a policy's generation is newer than its
 * status.observedGeneration, type-checks it and writes status.observedGeneration and status.typeChecking
 * (warnings, or `{}` when there are none) through storage, so every kapi instance on the same storage agrees.
 */
import type { Controller } from '../../core/contracts/controller.js';
import type { ObjectClients, ResourceClient } from '../../core/contracts/object-client.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import { ApiError } from '../../core/contracts/api-error.js';
import type { ValidatingAdmissionPolicy } from '../../builtin/admissionregistration/validating-admission-policy-types.js';
import type { PolicySource } from './policy-source.js';
import { typeCheckPolicy } from './type-checker.js';
import { log } from '../../lib/log/logger.js';

export class PolicyStatusController implements Controller {
  readonly name = 'validatingadmissionpolicy-status-controller';
  private client?: ResourceClient<ValidatingAdmissionPolicy>;
  private readonly pending = new Set<string>();
  private running = false;
  private stopped = false;

  constructor(
    private readonly objects: () => ObjectClients,
    private readonly rt: ResourceType,
    private readonly source: PolicySource,
    private readonly registry: () => ResourceRegistry,
  ) {
    source.onChange(() => this.enqueueStale());
  }

  get resources(): Controller['resources'] {
    return [{ group: this.rt.group, resource: this.rt.names.plural }];
  }

  async start(): Promise<void> {
    this.client = this.objects().forResource<ValidatingAdmissionPolicy>({ group: this.rt.group, resource: this.rt.names.plural });
    this.enqueueStale();
  }

  async stop(): Promise<void> {
    this.stopped = true;
  }

  private enqueueStale(): void {
    if (!this.client || this.stopped) return;
    for (const p of this.source.allPolicies()) {
      if ((p.metadata?.generation ?? 0) > (p.status?.observedGeneration ?? 0)) this.pending.add(p.metadata!.name!);
    }
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.pending.size && !this.stopped) {
        const name = this.pending.values().next().value as string;
        this.pending.delete(name);
        await this.reconcile(name).catch((err: Error) => {
          if (!(err instanceof ApiError && err.reason === 'NotFound')) log.error(`status of ValidatingAdmissionPolicy ${name}: ${err.message}`);
        });
      }
    } finally {
      this.running = false;
    }
  }

  private async reconcile(name: string): Promise<void> {
    await this.client!.update(
      '',
      name,
      (policy) => {
        const generation = policy.metadata?.generation ?? 0;
        if (generation <= (policy.status?.observedGeneration ?? 0)) return policy;
        const expressionWarnings = typeCheckPolicy(policy, this.registry());
        return { ...policy, status: { ...policy.status, observedGeneration: generation, typeChecking: expressionWarnings.length ? { expressionWarnings } : {} } };
      },
      { subresource: 'status' },
    );
  }
}
