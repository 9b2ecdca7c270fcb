/**
 * The `ValidatingAdmissionPolicy` admission plugin (kube's validating policy dispatcher), in the validating phase:
 * for each bound policy whose matchConstraints match the request, each binding whose matchResources match, and each
 * of the binding's params, the policy's expressions are evaluated; failed validations are enforced per the
 * binding's validationActions (Deny: the request fails with the first denial; Warn: a `Warning` header; Audit: a
 * `validation.policy.admission.k8s.io/validation_failure` audit annotation). Configuration and runtime errors
 * follow the policy's failurePolicy. Policies loaded from static manifest files (KEP-5793) are evaluated first, on
 * every request; those stored through the API then, except on requests on policies and bindings themselves.
 *
 * Policies without params, namespace selectors, `namespaceObject` or `authorizer` are evaluated synchronously; the
 * others wait for the namespace, their params or the authorizers' answers (see AuthorizationChecks).
 */
import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';
import type { AdmissionPlugin } from '../../core/contracts/admission-plugin.js';
import type { NamespaceLookup } from '../../core/contracts/namespace-lookup.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { ApiError, groupResource } from '../../core/contracts/api-error.js';
import type { Value } from '../../lib/cel/values.js';
import type { AdmissionInputs } from './cel/admission-activation.js';
import { attributesInputs, requestNamespaceObject } from './cel/admission-inputs.js';
import { AuthorizationChecks } from './cel/authorization-checks.js';
import type { AuthorizationChain } from '../../core/contracts/authorizer.js';
import { dynValue } from '../../lib/cel/dyn-values.js';
import type { CompiledPolicy } from './compiled-policy.js';
import { collectParams } from './param-collection.js';
import type { ParamInformers } from './param-informers.js';
import { matchResources, type MatchOutcome } from './policy-matcher.js';
import { requestHooks } from './policy-resources.js';
import type { BindingHook, PolicyHook, PolicySource } from './policy-source.js';
import { validatePolicy, type ValidateResult } from './policy-validator.js';

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason: string;
}

const VALIDATION_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;

const REASON_CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** attributes.AddAnnotation: the first value of a key stays. */
function addAnnotation(attrs: AdmissionAttributes, key: string, value: string): void {
  const annotations = (attrs.auditAnnotations ??= {});
  if (!(key in annotations)) annotations[key] = value;
}

/** The error kube answers a denial with: admission.NewForbidden's message and details, the decision's reason and code. */
function denialError(attrs: AdmissionAttributes, d: Denial): ApiError {
  const message = d.binding
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const name = attrs.name || attrs.object?.metadata?.name || '';
  const qualified = groupResource(attrs.resource);
  const reason = d.reason || 'Invalid';
  return new ApiError(REASON_CODES[reason] ?? 422, reason, `${name ? `${qualified} "${name}"` : qualified} is forbidden: ${message}`, {
    ...(name ? { name } : {}),
    ...(attrs.resource.group ? { group: attrs.resource.group } : {}),
    kind: attrs.resource.resource,
    causes: [{ message }],
  });
}

const paramValues = new WeakMap<KubeObject, Value>();

/** A param object's CEL value, shared by every request (stored objects are not changed). */
function paramValue(obj: KubeObject | null): Value {
  if (!obj) return null;
  let v = paramValues.get(obj);
  if (v === undefined) {
    v = dynValue(obj);
    paramValues.set(obj, v);
  }
  return v;
}

/** One request's dispatch: its inputs (built once, lazily), the denials and audit annotations collected. */
class Dispatch {
  readonly denials: Denial[] = [];
  readonly inputs: AdmissionInputs;
  private readonly checks: AuthorizationChecks;
  private namespace?: Value;

  constructor(
    readonly attrs: AdmissionAttributes,
    readonly namespaces: NamespaceLookup,
    authorization: () => AuthorizationChain,
  ) {
    this.checks = new AuthorizationChecks(authorization);
    this.inputs = attributesInputs(attrs, this.checks);
  }

  configError(policy: CompiledPolicy, message: string, binding?: string): void {
    if (policy.failurePolicy === 'Ignore') return;
    this.denials.push({ policy: policy.name, binding, message: `failed to configure ${binding ? 'binding' : 'policy'}: ${message}`, reason: '' });
  }

  /** A match outcome's configuration error is reported; true when the request matches. */
  matched(outcome: MatchOutcome, policy: CompiledPolicy, binding?: string): boolean {
    if (outcome.error) this.configError(policy, outcome.error, binding);
    return outcome.matches;
  }

  async namespaceObject(): Promise<Value> {
    if (this.namespace === undefined) this.namespace = await requestNamespaceObject(this.attrs, this.namespaces);
    return this.namespace;
  }

  /**
   * Evaluates a policy for a binding's params and enforces the decisions per the binding's validationActions; waits
   * only when the policy asks the authorizer something not answered yet.
   */
  evaluate(policy: CompiledPolicy, binding: BindingHook, params: readonly (KubeObject | null)[], namespaceObject: Value, annotations: Map<string, string[]>): void | Promise<void> {
    const validate = () => params.map((param) => validatePolicy(policy, this.inputs, { params: paramValue(param), namespaceObject }));
    const results = this.checks.settled(validate);
    if (results instanceof Promise) return results.then((r) => this.enforce(policy, binding, r, annotations));
    this.enforce(policy, binding, results, annotations);
  }

  private enforce(policy: CompiledPolicy, binding: BindingHook, results: ValidateResult[], annotations: Map<string, string[]>): void {
    const { attrs } = this;
    for (const result of results) {
      result.decisions.forEach((d, i) => {
        if (d.action !== 'deny') return;
        for (const action of binding.validationActions) {
          if (action === 'Deny') this.denials.push({ policy: policy.name, binding: binding.name, message: d.message, reason: d.reason });
          else if (action === 'Warn') attrs.warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${d.message}`);
          else if (action === 'Audit') {
            const failure = { message: d.message, policy: binding.spec.policyName, binding: binding.name, expressionIndex: i, validationActions: binding.validationActions };
            addAnnotation(attrs, VALIDATION_FAILURE_KEY, JSON.stringify([failure]));
          }
        }
      });
      for (const a of result.auditAnnotations) {
        if (a.action === 'publish') {
          const values = annotations.get(a.key) ?? [];
          const value = a.value!.slice(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH);
          if (!values.includes(value)) values.push(value);
          annotations.set(a.key, values);
        } else if (a.action === 'error') {
          this.denials.push({ policy: policy.name, binding: binding.name, message: a.error!, reason: '' });
        }
      }
    }
  }

  /** A policy's audit annotations, published as `<policy>/<key>` (distinct values of several bindings joined). */
  publish(policy: CompiledPolicy, annotations: Map<string, string[]>): void {
    for (const [key, values] of annotations) addAnnotation(this.attrs, `${policy.name}/${key}`, values.join(', '));
  }

  finish(): void {
    if (this.denials.length) throw denialError(this.attrs, this.denials[0]);
  }
}

const NO_PARAMS: readonly null[] = [null];

export class ValidatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  readonly operations = ['*'] as const;
  readonly rules = [{ apiGroups: ['*'], resources: ['*/*'] }];
  readonly sideEffects = 'None';

  private namespaceLookup?: NamespaceLookup;

  /**
   * `source`: the policies stored through the API; `staticSource`: those loaded from static manifest files (no
   * params: kube refuses paramKind there).
   */
  constructor(
    private readonly source: PolicySource,
    private readonly params: ParamInformers,
    private readonly resolveNamespaces: () => NamespaceLookup,
    /** The server's authorizers, which the CEL `authorizer` asks. */
    private readonly authorization: () => AuthorizationChain,
    private readonly staticSource?: PolicySource,
  ) {}

  /** Resolved on first use (the namespaces module registers it; resolving per request would cost every request). */
  private get namespaces(): NamespaceLookup {
    return (this.namespaceLookup ??= this.resolveNamespaces());
  }

  validate(attrs: AdmissionAttributes): Promise<void> | void {
    const hooks = requestHooks(attrs, this.source, this.staticSource);
    if (!hooks.length) return;
    const d = new Dispatch(attrs, this.namespaces, this.authorization);
    for (let i = 0; i < hooks.length; i++) {
      if (hooks[i].synchronous) {
        this.runSync(hooks[i], d);
        continue;
      }
      return this.runAsync(hooks, i, d);
    }
    d.finish();
  }

  private runSync({ policy, bindings }: PolicyHook, d: Dispatch): void {
    if (!policy.matchConstraints || !d.matched(matchResources(policy.matchConstraints, d.attrs, d.namespaces) as MatchOutcome, policy)) return;
    if (policy.configurationError) return d.configError(policy, policy.configurationError);
    const annotations = new Map<string, string[]>();
    for (const binding of bindings) {
      if (binding.configurationError) d.configError(policy, binding.configurationError, binding.name);
      else if (!binding.matchResources || d.matched(matchResources(binding.matchResources, d.attrs, d.namespaces) as MatchOutcome, policy, binding.name)) {
        void d.evaluate(policy, binding, NO_PARAMS, null, annotations); // synchronous: the policy asks no authorizer
      }
    }
    d.publish(policy, annotations);
  }

  /** The hooks from `from` on, waiting where a hook needs the namespace or params. */
  private async runAsync(hooks: readonly PolicyHook[], from: number, d: Dispatch): Promise<void> {
    for (let i = from; i < hooks.length; i++) {
      if (hooks[i].synchronous) this.runSync(hooks[i], d);
      else await this.runHook(hooks[i], d);
    }
    d.finish();
  }

  private async runHook({ policy, bindings }: PolicyHook, d: Dispatch): Promise<void> {
    if (!policy.matchConstraints || !d.matched(await matchResources(policy.matchConstraints, d.attrs, d.namespaces), policy)) return;
    if (policy.configurationError) return d.configError(policy, policy.configurationError);
    const paramSource = this.params.sourceFor(policy.paramKind);
    if (typeof paramSource === 'string') return d.configError(policy, paramSource);
    const annotations = new Map<string, string[]>();
    for (const binding of bindings) {
      if (binding.configurationError) {
        d.configError(policy, binding.configurationError, binding.name);
        continue;
      }
      if (binding.matchResources && !d.matched(await matchResources(binding.matchResources, d.attrs, d.namespaces), policy, binding.name)) continue;
      const collected = await collectParams(policy.paramKind, paramSource, binding.spec.paramRef, d.attrs.namespace);
      if ('error' in collected) {
        d.configError(policy, collected.error, binding.name);
        continue;
      }
      if (!collected.params.length) continue;
      const namespaceObject = policy.usesNamespaceObject ? await d.namespaceObject() : null;
      await d.evaluate(policy, binding, collected.params, namespaceObject, annotations);
    }
    d.publish(policy, annotations);
  }

}
