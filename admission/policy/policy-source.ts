/**
 * The admission policies and bindings in force from one source (kube's policy source): storage, both followed by
 * informers, or the static manifest files; each policy compiled once per uid and generation (by the source's compile
 * function: ValidatingAdmissionPolicies by default, MutatingAdmissionPolicies with theirs), bindings grouped under
 * their policy (a binding whose policy does not exist does nothing). Listeners (the type-checking controller) hear of
 * every change.
 */
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingSpec,
} from '../../builtin/admissionregistration/validating-admission-policy-types.js';
import { compileMatchResources, type CompiledMatchResources, type CompiledPolicy, type CompiledPolicyBase } from './compiled-policy.js';

export interface BindingHook {
  name: string;
  spec: ValidatingAdmissionPolicyBindingSpec;
  validationActions: string[];
  /** The binding's own narrowing, when it has matchResources. */
  matchResources?: CompiledMatchResources;
  /** A selector in matchResources that does not parse: every request the policy matches fails per failurePolicy. */
  configurationError?: string;
}

export interface PolicyHook<P extends CompiledPolicyBase = CompiledPolicy> {
  policy: P;
  bindings: BindingHook[];
  /**
   * Whether the hook can be evaluated without waiting: no params, no namespace selectors, no `namespaceObject`, no
   * `authorizer` (most policies; they then cost no asynchronous step).
   */
  synchronous: boolean;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export class PolicySource<P extends CompiledPolicyBase = CompiledPolicy> {
  /** Policies with at least one binding, by policy name. */
  hooks: PolicyHook<P>[] = [];
  private readonly compiled = new Map<string, { version: string; compiled: P }>();
  private readonly listeners: (() => void)[] = [];
  private policies: ReadonlyMap<string, KubeObject> = new Map();
  private bindings: ReadonlyMap<string, KubeObject> = new Map();

  /** `compile`: how a stored policy becomes the compiled form requests evaluate. */
  constructor(private readonly compile: (policy: KubeObject) => P) {}

  /** Called by the policies' informer. */
  policiesChanged = (objects: ReadonlyMap<string, KubeObject>): void => {
    this.policies = objects;
    this.rebuild();
  };

  /** Called by the bindings' informer. */
  bindingsChanged = (objects: ReadonlyMap<string, KubeObject>): void => {
    this.bindings = objects;
    this.rebuild();
  };

  /** Both at once (the static manifests: a policy and its binding come and go together). */
  replace(policies: ReadonlyMap<string, KubeObject>, bindings: ReadonlyMap<string, KubeObject>): void {
    this.policies = policies;
    this.bindings = bindings;
    this.rebuild();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Every policy (bound or not), as stored. */
  allPolicies(): ValidatingAdmissionPolicy[] {
    return [...this.policies.values()];
  }

  /** The compiled form of a stored policy (compiled once per uid and generation). */
  compiledPolicy(policy: KubeObject): P {
    const name = policy.metadata?.name ?? '';
    const version = `${policy.metadata?.uid}/${policy.metadata?.generation}`;
    const cached = this.compiled.get(name);
    if (cached?.version === version) return cached.compiled;
    const compiled = this.compile(policy);
    this.compiled.set(name, { version, compiled });
    return compiled;
  }

  private rebuild(): void {
    const bindingsByPolicy = new Map<string, BindingHook[]>();
    for (const obj of this.bindings.values()) {
      const b = obj as ValidatingAdmissionPolicyBinding;
      const spec = b.spec ?? {};
      const hook: BindingHook = { name: b.metadata?.name ?? '', spec, validationActions: spec.validationActions ?? [] };
      if (spec.matchResources) {
        try {
          hook.matchResources = compileMatchResources(spec.matchResources);
        } catch (e) {
          hook.configurationError = (e as Error).message;
        }
      }
      const list = bindingsByPolicy.get(spec.policyName ?? '') ?? [];
      list.push(hook);
      bindingsByPolicy.set(spec.policyName ?? '', list);
    }
    const hooks: PolicyHook<P>[] = [];
    for (const name of [...this.compiled.keys()]) if (!this.policies.has(name)) this.compiled.delete(name);
    for (const obj of this.policies.values()) {
      const bindings = bindingsByPolicy.get(obj.metadata?.name ?? '');
      if (!bindings) continue;
      const policy = this.compiledPolicy(obj);
      const synchronous =
        !policy.paramKind &&
        !policy.usesNamespaceObject &&
        !policy.usesAuthorizer &&
        (policy.matchConstraints?.namespaceSelector.isEmpty() ?? true) &&
        bindings.every((b) => b.matchResources?.namespaceSelector.isEmpty() ?? true);
      hooks.push({ policy, bindings: bindings.sort(byName), synchronous });
    }
    this.hooks = hooks.sort((a, b) => byName(a.policy, b.policy));
    for (const l of this.listeners) l();
  }
}
