import { isDeepStrictEqual } from 'node:util';
import type { DependencyContainer } from 'tsyringe';
import { ApiError } from '../../core/contracts/api-error.js';
import type { Controller } from '../../core/contracts/controller.js';
import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from '../../core/contracts/flowcontrol.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import type { FlowControlConfiguration } from '../../core/contracts/flowcontrol.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { autoUpdateAnnotation, mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels } from './bootstrap-configuration.js';
import { flowSchemaResourceRef, priorityLevelResourceRef } from './flowcontrol-resources.js';
import { log } from '../../lib/log/logger.js';

/** How often the configuration is checked even when nothing changed (kube's ensurer runs periodically too). */
const resyncMs = 60_000;

type ApfObject = FlowSchema | PriorityLevelConfiguration;

/**
 * kube-apiserver's APF configuration maintenance: at start (before serving) and after every change, the mandatory
 * objects (exempt, catch-all) are created when missing and their spec restored; the suggested ones are created when
 * missing and their spec kept to kube's while `apf.kubernetes.io/autoupdate-spec` is "true" (absent: while nobody
 * changed them, generation 1). Each FlowSchema's `Dangling` condition says whether its priority level exists.
 */
export class FlowControlConfigurationController implements Controller {
  readonly name = 'priority-and-fairness-config-producer';
  readonly resources = [flowSchemaResourceRef, priorityLevelResourceRef];
  private unsubscribe?: () => void;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly container: DependencyContainer,
    private readonly configuration: FlowControlConfiguration,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.configuration.synced();
    // following changes from before the first pass, which a change during it must not escape
    this.unsubscribe = this.configuration.subscribe(() => this.schedule());
    this.running = this.ensure();
    await this.running.finally(() => (this.running = undefined));
    if (this.again) {
      this.again = false;
      this.schedule();
    }
    this.timer = setInterval(() => this.schedule(), resyncMs).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass at a time; changes during a pass cause one more. */
  private schedule(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.ensure()
      .catch((err: Error) => log.error(`priority and fairness configuration: ${err.message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
  }

  private async ensure(): Promise<void> {
    const objects = this.container.resolve(Tokens.Objects);
    const options = { fieldManager: 'api-priority-and-fairness-config-producer-v1' };
    const levels = objects.forResource<PriorityLevelConfiguration>(priorityLevelResourceRef, options);
    const schemas = objects.forResource<FlowSchema>(flowSchemaResourceRef, options);
    const currentLevels = byName(this.configuration.priorityLevels());
    const currentSchemas = byName(this.configuration.flowSchemas());
    for (const pl of mandatoryPriorityLevels()) await ensureObject(levels, currentLevels.get(pl.metadata!.name!), pl, true);
    for (const fs of mandatoryFlowSchemas()) await ensureObject(schemas, currentSchemas.get(fs.metadata!.name!), fs, true);
    for (const pl of suggestedPriorityLevels()) await ensureObject(levels, currentLevels.get(pl.metadata!.name!), pl, false);
    for (const fs of suggestedFlowSchemas()) await ensureObject(schemas, currentSchemas.get(fs.metadata!.name!), fs, false);
    const levelNames = new Set(this.configuration.priorityLevels().map((pl) => pl.metadata?.name));
    for (const fs of this.configuration.flowSchemas()) await markDangling(schemas, fs, levelNames.has(fs.spec?.priorityLevelConfiguration?.name));
  }
}

function byName<T extends ApfObject>(list: readonly T[]): Map<string, T> {
  return new Map(list.map((o) => [o.metadata?.name ?? '', o]));
}

/** Creates `expected` when missing; restores its spec when the server maintains it and it differs. */
async function ensureObject<T extends ApfObject>(client: ResourceClient<T>, current: T | undefined, expected: T, mandatory: boolean): Promise<void> {
  if (!current) {
    try {
      await client.create(structuredClone(expected));
    } catch (err) {
      if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err; // another kapi on the same storage
    }
    return;
  }
  if (!mandatory && !autoUpdates(current)) return;
  if (isDeepStrictEqual(current.spec, expected.spec) && current.metadata?.annotations?.[autoUpdateAnnotation] === 'true') return;
  try {
    await client.update('', expected.metadata!.name!, (latest) => {
      latest.spec = structuredClone(expected.spec) as never;
      latest.metadata = { ...latest.metadata, annotations: { ...latest.metadata?.annotations, [autoUpdateAnnotation]: 'true' } };
      return latest;
    });
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err; // deleted meanwhile: the next pass creates it
  }
}

/** Whether the server maintains a suggested object's spec: as its annotation says, else while nobody changed it. */
function autoUpdates(obj: ApfObject): boolean {
  const annotation = obj.metadata?.annotations?.[autoUpdateAnnotation];
  if (annotation !== undefined) return annotation === 'true';
  return obj.metadata?.generation === 1;
}

/** Sets the FlowSchema's Dangling condition (kube's reasons and messages) when it does not say what is true now. */
async function markDangling(client: ResourceClient<FlowSchema>, fs: FlowSchema, levelExists: boolean): Promise<void> {
  const level = fs.spec?.priorityLevelConfiguration?.name ?? '';
  const wanted: FlowSchemaCondition = levelExists
    ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists` }
    : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object` };
  const same = (c: FlowSchemaCondition | undefined) => c && c.status === wanted.status && c.reason === wanted.reason && c.message === wanted.message;
  if (same(fs.status?.conditions?.find((c) => c.type === 'Dangling'))) return;
  try {
    await client.update(
      '',
      fs.metadata!.name!,
      (latest) => {
        const conditions = latest.status?.conditions ?? [];
        const previous = conditions.find((c) => c.type === 'Dangling');
        if (same(previous)) return latest;
        const lastTransitionTime = previous?.status === wanted.status && previous?.lastTransitionTime ? previous.lastTransitionTime : formatDateRFC3339(new Date());
        latest.status = { ...latest.status, conditions: [...conditions.filter((c) => c.type !== 'Dangling'), { ...wanted, lastTransitionTime }] };
        return latest;
      },
      { subresource: 'status' },
    );
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err; // deleted meanwhile
  }
}
