import type { FlowControlConfiguration, FlowSchema, PriorityLevelConfiguration } from '../../core/contracts/flowcontrol.js';
import type { Informer } from '../../core/contracts/informer.js';

/** The FlowSchemas and priority levels as the server's informers follow them (what priority and fairness reads). */
export class InformerFlowControlConfiguration implements FlowControlConfiguration {
  private schemas?: FlowSchema[];
  private levels?: PriorityLevelConfiguration[];

  constructor(
    private readonly flowSchemaInformer: () => Informer,
    private readonly priorityLevelInformer: () => Informer,
  ) {}

  async synced(): Promise<void> {
    await Promise.all([this.flowSchemaInformer().synced(), this.priorityLevelInformer().synced()]);
  }

  flowSchemas(): readonly FlowSchema[] {
    return (this.schemas ??= [...this.flowSchemaInformer().current().values()] as FlowSchema[]);
  }

  priorityLevels(): readonly PriorityLevelConfiguration[] {
    return (this.levels ??= [...this.priorityLevelInformer().current().values()] as PriorityLevelConfiguration[]);
  }

  subscribe(onChange: () => void): () => void {
    const unsubscribes = [
      this.flowSchemaInformer().subscribe(() => {
        this.schemas = undefined;
        onChange();
      }),
      this.priorityLevelInformer().subscribe(() => {
        this.levels = undefined;
        onChange();
      }),
    ];
    return () => unsubscribes.forEach((u) => u());
  }
}
