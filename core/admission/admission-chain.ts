import type { Histogram } from 'prom-client';
import { performance } from 'node:perf_hooks';
import { errors } from '../contracts/api-error.js';
import type { AdmissionAttributes } from '../contracts/admission-attributes.js';
import type { AdmissionPlugin } from '../contracts/admission-plugin.js';
import { pluginMatches } from './plugin-matching.js';

/** apiserver_admission_step_admission_duration_seconds: type (admit, validate), operation, rejected. */
export type AdmissionStepDuration = Histogram<'type' | 'operation' | 'rejected'>;

/**
 * The enabled admission plugins, in order: `admit` of each in the mutating phase, `validate` in the validating one.
 * Each phase's duration is observed as kube's admission step metric.
 */
export class AdmissionChain {
  private readonly mutating: AdmissionPlugin[];
  private readonly validating: AdmissionPlugin[];

  constructor(
    plugins: AdmissionPlugin[],
    private readonly stepDuration?: AdmissionStepDuration,
  ) {
    this.mutating = plugins.filter((p) => p.admit);
    this.validating = plugins.filter((p) => p.validate);
  }

  admit(attrs: AdmissionAttributes): Promise<void> {
    return this.timed('admit', attrs, async () => {
      await this.runMutating(attrs);
      // kube's reinvocation: one more round when a plugin changed the object after others had run
      const reinvocation = attrs.reinvocation;
      if (reinvocation?.shouldReinvoke && !reinvocation.isReinvoke) {
        reinvocation.isReinvoke = true;
        await this.runMutating(attrs);
      }
    });
  }

  private async timed(type: 'admit' | 'validate', attrs: AdmissionAttributes, step: () => Promise<void>): Promise<void> {
    if (!this.stepDuration) return step();
    const started = performance.now();
    let rejected = true;
    try {
      await step();
      rejected = false;
    } finally {
      this.stepDuration.observe({ type, operation: attrs.operation, rejected: String(rejected) }, (performance.now() - started) / 1000);
    }
  }

  private async runMutating(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.mutating) {
      if (!this.handles(p, attrs)) continue;
      const pending = p.admit!(attrs);
      if (pending) await pending; // synchronous plugins cost no microtask hop
    }
  }

  validate(attrs: AdmissionAttributes): Promise<void> {
    return this.timed('validate', attrs, async () => {
      for (const p of this.validating) {
        if (!this.handles(p, attrs)) continue;
        const pending = p.validate!(attrs);
        if (pending) await pending;
      }
    });
  }

  private handles(plugin: AdmissionPlugin, attrs: AdmissionAttributes): boolean {
    if (!pluginMatches(plugin, attrs)) return false;
    // kube refuses a dry run that would reach a webhook with side effects, with this message (for webhooks).
    if (attrs.dryRun && plugin.sideEffects === 'Some') throw errors.badRequest(`admission plugin "${plugin.name}" does not support dry run`);
    return true;
  }
}

/**
 * The plugins a server runs: those named in `names`, in that order; without names, every registered plugin that is
 * enabled by default, in registration order. An unknown name is a configuration error.
 */
export function selectAdmissionPlugins(registered: AdmissionPlugin[], names?: readonly string[]): AdmissionPlugin[] {
  const byName = new Map<string, AdmissionPlugin>();
  for (const p of registered) {
    if (byName.has(p.name)) throw new Error(`admission plugin "${p.name}" is registered twice`);
    byName.set(p.name, p);
  }
  if (!names) return registered.filter((p) => p.enabledByDefault !== false);
  return names.map((name) => {
    const p = byName.get(name);
    if (!p) throw new Error(`admission plugin "${name}" is unknown (registered: ${[...byName.keys()].join(', ') || 'none'})`);
    return p;
  });
}
