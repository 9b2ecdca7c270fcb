import type { FlowControlConfiguration, FlowSchema, PriorityLevelConfiguration } from '../../core/contracts/flowcontrol.js';
import type { Informer } from '../../core/contracts/informer.js';

/**
 * The FlowSchemas and priority levels as the server's informers follow them (what priority and fairness reads, once
 * per change: the lists are made afresh on each call).
 */
export class InformerFlowControlConfiguration implements FlowControlConfiguration {
  constructor(
    private readonly flowSchemaInformer: () => Informer,
    private readonly priorityLevelInformer: () => Informer,
  ) {}

  async synced(): Promise<void> {
    await Promise.all([this.flowSchemaInformer().synced(), this.priorityLevelInformer().synced()]);
  }

  flowSchemas(): readonly FlowSchema[] {
    return [...this.flowSchemaInformer().current().values()] as FlowSchema[];
  }

  priorityLevels(): readonly PriorityLevelConfiguration[] {
    return [...this.priorityLevelInformer().current().values()] as PriorityLevelConfiguration[];
  }

  subscribe(onChange: () => void): () => void {
    const unsubscribes = [this.flowSchemaInformer().subscribe(onChange), this.priorityLevelInformer().subscribe(onChange)];
    return () => unsubscribes.forEach((u) => u());
  }
}
