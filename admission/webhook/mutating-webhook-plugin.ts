import { isDeepStrictEqual } from 'node:util';
import type { AdmissionAttributes, AdmissionReinvocation } from '../../core/contracts/admission-attributes.js';
import { errors } from '../../core/contracts/api-error.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { mutatedObjectDecoding } from '../mutated-object-decoding.js';
import { applyVersionDefaults } from '../version-defaults.js';
import { callWebhook } from './webhook-call.js';
import { addAuditAnnotation } from '../../core/contracts/audit-annotation.js';
import { WebhookCallFailed } from './webhook-errors.js';
import { objectInVersion, shouldCallHook, type WebhookInvocation } from './webhook-invocation.js';
import { applyWebhookPatch, decodeJsonPatch, JsonPatchError } from './webhook-json-patch.js';
import { WebhookReinvokeContext } from './webhook-reinvocation.js';
import type { WebhookAccessor } from './webhook-accessor.js';
import { WebhookAdmissionPlugin } from './webhook-admission-plugin.js';

const pluginName = 'MutatingAdmissionWebhook';
/** kube's audit annotation keys for mutating webhooks (per round and webhook index). */
const mutationPrefix = 'mutation.webhook.admission.k8s.io/';
const patchPrefix = 'patch.webhook.admission.k8s.io/';
const failedOpenPrefix = `failed-open.${mutationPrefix}`;

/** Go's json.Marshal of a decoded patch (operations are maps: keys sorted). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * kube's MutatingAdmissionWebhook: the webhooks of every MutatingWebhookConfiguration that match the request are
 * called one after the other (configurations by name, webhooks in order), each seeing the object as the previous
 * one left it, and their JSON patches applied. A webhook whose patch changed the object makes the mutating phase run
 * once more, calling again the reinvocationPolicy IfNeeded webhooks that ran before the change. A webhook that cannot
 * be called, or answers nonsense, fails the request (500) under failurePolicy Fail and is skipped under Ignore; a
 * patch that cannot be applied is a 500 either way.
 */
export class MutatingWebhookPlugin extends WebhookAdmissionPlugin {
  readonly name = pluginName;

  admit(attrs: AdmissionAttributes): Promise<void> | void {
    const hooks = this.webhooksFor(attrs);
    if (!hooks.length) return;
    return this.dispatch(attrs, hooks);
  }

  private async dispatch(attrs: AdmissionAttributes, hooks: readonly WebhookAccessor[]): Promise<void> {
    const reinvocation: AdmissionReinvocation = (attrs.reinvocation ??= { shouldReinvoke: false, isReinvoke: false, state: new Map() });
    let context = reinvocation.state.get(pluginName) as WebhookReinvokeContext | undefined;
    if (!context) reinvocation.state.set(pluginName, (context = new WebhookReinvokeContext()));
    // in-process plugins changed the object since the webhooks last saw it: the IfNeeded ones must see it again
    if (reinvocation.isReinvoke && context.outputChangedSince(attrs.object)) context.requireReinvokingPreviouslyInvoked();
    const round = reinvocation.isReinvoke ? 1 : 0;
    try {
      for (let index = 0; index < hooks.length; index++) {
        const invocation = await shouldCallHook(hooks[index], attrs, this.ctx);
        if (!invocation) continue;
        // a reinvocation round calls only webhooks that asked for it and ran before a change
        if (reinvocation.isReinvoke && !context.shouldReinvoke(invocation.hook.uid)) continue;
        let changed = false;
        let failure: unknown;
        try {
          changed = await this.call(invocation, attrs, round, index);
        } catch (err) {
          failure = err;
        }
        if (changed) {
          context.requireReinvokingPreviouslyInvoked();
          reinvocation.shouldReinvoke = true;
        }
        if (invocation.hook.reinvokeIfNeeded) context.addPreviouslyInvoked(invocation.hook.uid);
        if (failure === undefined) continue;
        if (failure instanceof WebhookCallFailed) {
          if (invocation.hook.ignoreFailures) {
            addAuditAnnotation(attrs, `${failedOpenPrefix}round_${round}_index_${index}`, invocation.hook.name);
            continue;
          }
          throw failure.toApiError();
        }
        throw failure;
      }
    } finally {
      context.setLastOutput(attrs.object);
    }
  }

  /** Calls one webhook and applies its patch to `attrs.object`; whether the patch changed the object. */
  private async call(invocation: WebhookInvocation, attrs: AdmissionAttributes, round: number, index: number): Promise<boolean> {
    const { hook } = invocation;
    let changed = false;
    try {
      const response = await callWebhook(invocation, attrs, true, this.ctx.services, this.ctx.metrics);
      if (!response.patch?.length) return false;
      let ops;
      try {
        ops = decodeJsonPatch(response.patch);
      } catch (err) {
        if (!(err instanceof JsonPatchError)) throw err;
        throw new WebhookCallFailed(hook.name, `received undecodable patch in webhook response: ${err.message}`);
      }
      if (!ops.length) return false;
      if (attrs.operation === 'DELETE') {
        throw errors.internal(`admission webhook ${JSON.stringify(hook.name)} attempted to modify the object, which is not supported for this operation`);
      }
      if (response.patchType !== 'JSONPatch') throw new WebhookCallFailed(hook.name, `unsupported patch type ${JSON.stringify(response.patchType ?? '')}`);
      const versioned = await objectInVersion(attrs.object, invocation.resource, this.ctx.registry);
      let patched: KubeObject;
      try {
        patched = applyWebhookPatch(versioned, ops);
      } catch (err) {
        if (err instanceof JsonPatchError) throw errors.internal(err.message);
        throw err;
      }
      const rt = this.ctx.registry.get(invocation.resource.group, invocation.resource.resource);
      const decodeError = mutatedObjectDecoding(rt, invocation.resource.version).patched(patched);
      if (decodeError) throw errors.internal(decodeError);
      changed = !isDeepStrictEqual(versioned, patched);
      applyVersionDefaults(this.ctx.registry, invocation.resource, patched);
      attrs.object = await objectInVersion(patched, attrs.resource, this.ctx.registry);
      const patchValue = `{"configuration":${JSON.stringify(hook.configurationName)},"webhook":${JSON.stringify(hook.name)},"patch":${sortedJson(ops)},"patchType":"JSONPatch"}`;
      addAuditAnnotation(attrs, `${patchPrefix}round_${round}_index_${index}`, patchValue);
      return changed;
    } finally {
      const mutation = { configuration: hook.configurationName, webhook: hook.name, mutated: changed };
      addAuditAnnotation(attrs, `${mutationPrefix}round_${round}_index_${index}`, JSON.stringify(mutation));
    }
  }
}
