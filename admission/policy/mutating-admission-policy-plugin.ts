/**
 * The `MutatingAdmissionPolicy` admission plugin (kube's mutating policy dispatcher), in the mutating phase: for each
 * bound policy (by name) whose matchConstraints match the request, each binding (by name) whose matchResources
 * match, and each of the binding's params whose matchConditions hold, the policy's mutations run in order on the
 * object, each seeing what the previous one left. Errors follow the policy's failurePolicy: Fail answers kube's
 * Status (403, the first error's reason, every error a cause) after every policy ran; Ignore skips the mutation.
 * Policies loaded from static manifest files (KEP-5793) run first, on every request; those stored through the API
 * then, except on requests on policies and bindings themselves. DELETE and CONNECT are not mutated (there is no
 * object to patch).
 *
 * Each patch that changed the object is followed by the kind's schema defaults, as kube's dispatcher defaults every
 * patched object.
 *
 * Reinvocation as kube's: a policy that changed the object makes the mutating phase run once more; in that round
 * only the reinvocationPolicy IfNeeded invocations (policy, binding, param) that ran before a change run again,
 * and all of them when another plugin changed the object since this one last ran.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AdmissionAttributes, AdmissionReinvocation } from '../../core/contracts/admission-attributes.js';
import type { AdmissionPlugin } from '../../core/contracts/admission-plugin.js';
import { ApiError } from '../../core/contracts/api-error.js';
import type { NamespaceLookup } from '../../core/contracts/namespace-lookup.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { Value } from '../../lib/cel/values.js';
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { applyVersionDefaults } from '../version-defaults.js';
import { WebhookReinvokeContext } from '../webhook/webhook-reinvocation.js';
import { AdmissionActivation, type AdmissionInputs } from './cel/admission-activation.js';
import type { AuthorizerValue, ResourceCheckValue } from './cel/authorizer-library.js';
import { attributesInputs, requestNamespaceObject } from './cel/admission-inputs.js';
import { AuthorizationChecks } from './cel/authorization-checks.js';
import type { AuthorizationChain } from '../../core/contracts/authorizer.js';
import { dynValue } from '../../lib/cel/dyn-values.js';
import type { CompiledMutatingPolicy } from './compiled-mutating-policy.js';
import { mutatedObjectDecoding, type MutatedObjectDecoding } from '../mutated-object-decoding.js';
import { mutate } from './mutation/mutate.js';
import { objectMergeModel } from './object-merge-model.js';
import { collectParams } from './param-collection.js';
import type { ParamInformers } from './param-informers.js';
import { matchResources } from './policy-matcher.js';
import { requestHooks } from './policy-resources.js';
import type { BindingHook, PolicyHook, PolicySource } from './policy-source.js';

const pluginName = 'MutatingAdmissionPolicy';

interface PolicyError {
  policy: string;
  binding?: string;
  message: string;
  /** '' for configuration errors (the Status keeps Forbidden), Invalid for evaluation and patch errors. */
  reason: string;
}

/** kube's PolicyError text. */
function errorText(e: PolicyError): string {
  return e.binding ? `policy '${e.policy}' with binding '${e.binding}' denied request: ${e.message}` : `policy ${JSON.stringify(e.policy)} denied request: ${e.message}`;
}

/**
 * What kube answers when policies failed: admission.NewForbidden's Status (403, details naming the object) with the
 * first error's text as message and its reason, when it has one, and every error as a cause.
 */
function policyErrorStatus(attrs: AdmissionAttributes, failures: PolicyError[]): ApiError {
  const name = attrs.name || attrs.object?.metadata?.name || '';
  const first = failures[0];
  return new ApiError(403, first.reason || 'Forbidden', errorText(first), {
    ...(name ? { name } : {}),
    ...(attrs.resource.group ? { group: attrs.resource.group } : {}),
    kind: attrs.resource.resource,
    causes: failures.map((e) => ({ message: errorText(e) })),
  });
}

/**
 * The request's inputs with `object` the object as the mutations so far left it. A class rather than an object
 * literal with getters: V8 builds such literals slowly, and one is made for every mutation that changed the object.
 */
class MutatedObjectInputs implements AdmissionInputs {
  readonly object: Value;
  readonly namespaceObject = null;
  constructor(
    private readonly inputs: AdmissionInputs,
    object: KubeObject,
  ) {
    this.object = dynValue(object);
  }
  get oldObject(): Value {
    return this.inputs.oldObject;
  }
  get request(): Value {
    return this.inputs.request;
  }
  get authorizer(): AuthorizerValue | undefined {
    return this.inputs.authorizer;
  }
  get requestResource(): ResourceCheckValue | undefined {
    return this.inputs.requestResource;
  }
}

/** What mutations need of the kind a request writes. */
interface MutationTarget {
  model?: MergeModel;
  decoding: MutatedObjectDecoding;
}

/** An invocation's key in the reinvocation bookkeeping (kube's policy, binding and param names). */
function invocationKey(policy: CompiledMutatingPolicy, binding: BindingHook, param: KubeObject | null): string {
  const p = param ? `${param.metadata?.namespace ?? ''}/${param.metadata?.name ?? ''}` : '';
  return JSON.stringify([policy.name, binding.name, p]);
}

export class MutatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = pluginName;
  readonly operations = ['CREATE', 'UPDATE'] as const;
  readonly rules = [{ apiGroups: ['*'], resources: ['*/*'] }];
  readonly sideEffects = 'None';

  private namespaceLookup?: NamespaceLookup;

  constructor(
    private readonly source: PolicySource<CompiledMutatingPolicy>,
    private readonly params: ParamInformers,
    private readonly resolveNamespaces: () => NamespaceLookup,
    private readonly registry: () => ResourceRegistry,
    /** The server's authorizers, which the CEL `authorizer` asks. */
    private readonly authorization: () => AuthorizationChain,
    /** The policies loaded from static manifest files (no params: kube refuses paramKind there). */
    private readonly staticSource?: PolicySource<CompiledMutatingPolicy>,
  ) {}

  /** Resolved on first use (the namespaces module registers it). */
  private get namespaces(): NamespaceLookup {
    return (this.namespaceLookup ??= this.resolveNamespaces());
  }

  admit(attrs: AdmissionAttributes): Promise<void> | void {
    const hooks = requestHooks(attrs, this.source, this.staticSource);
    if (!hooks.length || !attrs.object) return;
    // a reinvocation round runs only IfNeeded invocations: none, nothing to match
    if (attrs.reinvocation?.isReinvoke && !hooks.some((h) => h.policy.reinvokeIfNeeded)) return;
    return this.dispatch(attrs, hooks);
  }

  private async dispatch(attrs: AdmissionAttributes, hooks: readonly PolicyHook<CompiledMutatingPolicy>[]): Promise<void> {
    const reinvocation: AdmissionReinvocation = (attrs.reinvocation ??= { shouldReinvoke: false, isReinvoke: false, state: new Map() });
    let context = reinvocation.state.get(pluginName) as WebhookReinvokeContext | undefined;
    if (!context) reinvocation.state.set(pluginName, (context = new WebhookReinvokeContext()));
    // another plugin changed the object since the policies last saw it: every IfNeeded invocation must see it again
    if (reinvocation.isReinvoke && context.outputChangedSince(attrs.object)) context.requireReinvokingPreviouslyInvoked();

    const reinvokesIfNeeded = hooks.some((h) => h.policy.reinvokeIfNeeded);
    const configErrors: PolicyError[] = [];
    const runtimeErrors: PolicyError[] = [];
    const fail = (list: PolicyError[], policy: CompiledMutatingPolicy, message: string, binding?: string, reason = '') => {
      if (policy.failurePolicy === 'Fail') list.push({ policy: policy.name, binding, message, reason });
    };
    const configError = (policy: CompiledMutatingPolicy, message: string, binding?: string) =>
      fail(configErrors, policy, `failed to configure ${binding ? 'binding' : 'policy'}: ${message}`, binding);
    const checks = new AuthorizationChecks(this.authorization);
    const inputs = attributesInputs(attrs, checks);
    // the inputs over the object as the mutations so far left it, made again only when a mutation replaced it
    let current: { object: KubeObject; inputs: AdmissionInputs } | undefined;
    const inputsOf = (object: KubeObject) => (current?.object === object ? current : (current = { object, inputs: new MutatedObjectInputs(inputs, object) })).inputs;
    let namespaceObject: Value | undefined;
    let target: MutationTarget | undefined;

    try {
      for (const { policy, bindings } of hooks) {
        if (!policy.matchConstraints) continue;
        const matched = await matchResources(policy.matchConstraints, attrs, this.namespaces);
        if (matched.error) configError(policy, matched.error);
        if (!matched.matches) continue;
        if (policy.configurationError) {
          configError(policy, policy.configurationError);
          continue;
        }
        const paramSource = this.params.sourceFor(policy.paramKind);
        if (typeof paramSource === 'string') {
          configError(policy, paramSource);
          continue;
        }
        for (const binding of bindings) {
          if (binding.configurationError) {
            configError(policy, binding.configurationError, binding.name);
            continue;
          }
          if (binding.matchResources) {
            const m = await matchResources(binding.matchResources, attrs, this.namespaces);
            if (m.error) configError(policy, m.error, binding.name);
            if (!m.matches) continue;
          }
          const collected = await collectParams(policy.paramKind, paramSource, binding.spec.paramRef, attrs.namespace);
          if ('error' in collected) {
            configError(policy, collected.error, binding.name);
            continue;
          }
          if (policy.usesNamespaceObject && namespaceObject === undefined) namespaceObject = await requestNamespaceObject(attrs, this.namespaces);
          for (const param of collected.params) {
            const bindingInputs = { params: dynValue(param), namespaceObject: namespaceObject ?? null };
            if (policy.matchConditions) {
              const activation = new AdmissionActivation(inputsOf(attrs.object), policy.variables, bindingInputs);
              const m = await checks.settled(() => policy.matchConditions!.evaluate(activation));
              if (m.matches === 'error') fail(runtimeErrors, policy, m.message, binding.name, 'Invalid');
              if (m.matches !== true) continue;
            }
            // the bookkeeping key only when a reinvocation round may look at it
            const key = reinvocation.isReinvoke || policy.reinvokeIfNeeded ? invocationKey(policy, binding, param) : '';
            if (reinvocation.isReinvoke && !context.shouldReinvoke(key)) continue;
            const before = attrs.object;
            for (const mutation of policy.mutations) {
              const activation = new AdmissionActivation(inputsOf(attrs.object), policy.variables, bindingInputs);
              target ??= this.targetOf(attrs);
              const { model, decoding } = target;
              const object = attrs.object;
              const result = mutation ? await checks.settled(() => mutate(mutation, activation, object, model, decoding)) : { error: 'unsupported patch type' };
              if (result.error !== undefined) fail(runtimeErrors, policy, result.error, binding.name, 'Invalid');
              else if (result.object !== attrs.object) {
                applyVersionDefaults(this.registry(), attrs.resource, result.object);
                attrs.object = result.object;
              }
            }
            // once a round is due, a change matters only to IfNeeded invocations this plugin already ran
            const changeMatters = !reinvocation.shouldReinvoke || reinvokesIfNeeded;
            if (before !== attrs.object && changeMatters && !isDeepStrictEqual(before, attrs.object)) {
              context.requireReinvokingPreviouslyInvoked();
              reinvocation.shouldReinvoke = true;
            }
            if (policy.reinvokeIfNeeded) context.addPreviouslyInvoked(key);
          }
        }
      }
    } finally {
      // Only IfNeeded invocations look back at this output (in the reinvocation round): no copy for the others.
      if (reinvokesIfNeeded) context.setLastOutput(attrs.object);
    }
    const failures = [...configErrors, ...runtimeErrors];
    if (failures.length) throw policyErrorStatus(attrs, failures);
  }

  /**
   * The kind the request writes: the merge model of its version's schema (ApplyConfiguration merges by it; none for
   * schemaless kinds) and how the objects mutations leave decode into it.
   */
  private targetOf(attrs: AdmissionAttributes): MutationTarget {
    const { group, version, resource } = attrs.resource;
    const rt = this.registry().lookup(group, version, resource);
    return { model: objectMergeModel(rt, version), decoding: mutatedObjectDecoding(rt, version) };
  }
}
