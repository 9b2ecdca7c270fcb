import type { KubeObject, ResourceType } from '../registry/resource-type.js';
import type { UserInfo } from '../auth/authenticator.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** The attributes of one write, handed to every stage (the shape admission plugins will receive). */
export interface WriteAttributes {
  operation: Operation;
  rt: ResourceType;
  version: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The object to be stored; stages may replace or change it. */
  object: KubeObject;
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /** Warnings for the client (sent as `Warning: 299` headers). */
  warnings: string[];
}

/** One step of the write path; throws an ApiError to refuse the write. */
export interface WriteStage {
  readonly name: string;
  run(attrs: WriteAttributes): Promise<void> | void;
}

/**
 * The fixed order every write goes through before storage:
 * admission gates (e.g. namespace lifecycle) → mutating stages → validation → validating stages.
 */
export class WritePipeline {
  constructor(
    private readonly gates: WriteStage[],
    private readonly mutating: WriteStage[],
    private readonly validation: WriteStage[],
    private readonly validating: WriteStage[],
  ) {}

  /** Deletes pass the gates only: there is no new object to mutate or validate. */
  async admitDelete(attrs: WriteAttributes): Promise<void> {
    for (const stage of this.gates) await stage.run(attrs);
  }

  async run(attrs: WriteAttributes): Promise<void> {
    for (const stage of this.gates) await stage.run(attrs);
    for (const stage of this.mutating) await stage.run(attrs);
    for (const stage of this.validation) await stage.run(attrs);
    for (const stage of this.validating) await stage.run(attrs);
  }
}
