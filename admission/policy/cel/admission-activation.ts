/**
 * The variables one admission evaluation sees (Kubernetes' evaluationActivation plus the composition's
 * `variables`): `object`, `oldObject`, `request`, `params`, `namespaceObject`, `authorizer`,
 * `authorizer.requestResource`, and `variables.<name>`, each variable evaluated on first use and then kept.
 */
import type { Activation } from '../../../lib/cel/interpreter.js';
import { CelError, CelMap, LiteralMap, type Value } from '../../../lib/cel/values.js';
import type { AuthorizerValue, ResourceCheckValue } from './authorizer-library.js';
import { PER_CALL_LIMIT, type CompiledExpression } from './compiled-expression.js';

export interface AdmissionInputs {
  readonly object: Value;
  readonly oldObject: Value;
  readonly request: Value;
  readonly namespaceObject: Value;
  readonly params?: Value;
  readonly authorizer?: AuthorizerValue;
  readonly requestResource?: ResourceCheckValue;
}

/** What one binding's evaluation adds to a request's inputs. */
export interface BindingInputs {
  params: Value;
  namespaceObject: Value;
}

/** `variables` when a policy declares none. */
const NO_VARIABLES = new LiteralMap();

export interface NamedExpression {
  name: string;
  compiled: CompiledExpression;
}

/** `variables`: a map whose entries are the composited variables, evaluated lazily (Kubernetes' lazy.MapValue). */
class LazyVariables extends CelMap {
  private readonly values = new Map<string, Value | CelError>();
  private readonly byName: Map<string, CompiledExpression>;
  /** Cost of the variables evaluated so far and not yet charged to a budget. */
  pendingCost = 0;

  constructor(
    variables: readonly NamedExpression[],
    private readonly activation: Activation,
  ) {
    super();
    this.byName = new Map(variables.map((v) => [v.name, v.compiled]));
  }

  get size(): number {
    return this.byName.size;
  }

  keys(): Value[] {
    return [...this.byName.keys()];
  }

  get(key: Value): Value | undefined | CelError {
    if (typeof key !== 'string') return undefined;
    const cached = this.values.get(key);
    if (cached !== undefined) return cached;
    const compiled = this.byName.get(key);
    if (!compiled) return undefined;
    const v = this.evaluate(key, compiled);
    this.values.set(key, v);
    return v;
  }

  private evaluate(name: string, compiled: CompiledExpression): Value | CelError {
    if (!compiled.program) return new CelError(`composited variable "${name}" fails to compile: ${compiled.error?.detail ?? ''}`);
    const res = compiled.program.eval(this.activation, { costLimit: PER_CALL_LIMIT });
    this.pendingCost += res.cost;
    if (res.costLimitExceeded) return new CelError(`composited variable "${name}" fails to evaluate: operation cancelled: actual cost limit exceeded`);
    if (res.value instanceof CelError) return new CelError(`composited variable "${name}" fails to evaluate: ${res.value.message}`);
    return res.value as Value;
  }
}

export class AdmissionActivation implements Activation {
  readonly variables?: LazyVariables;

  constructor(
    private readonly inputs: AdmissionInputs,
    variables?: readonly NamedExpression[],
    private readonly binding?: BindingInputs,
  ) {
    if (variables?.length) this.variables = new LazyVariables(variables, this);
  }

  resolve(name: string): Value | undefined {
    const i = this.inputs;
    switch (name) {
      case 'object':
        return i.object;
      case 'oldObject':
        return i.oldObject;
      case 'request':
        return i.request;
      case 'namespaceObject':
        return this.binding ? this.binding.namespaceObject : i.namespaceObject;
      case 'params':
        return this.binding ? this.binding.params : (i.params ?? null);
      case 'authorizer':
        return i.authorizer;
      case 'authorizer.requestResource':
        return i.requestResource;
      case 'variables':
        return this.variables ?? NO_VARIABLES;
      default:
        return undefined;
    }
  }

  /** The cost of variables evaluated since the last call (charged to the budget of the expression list). */
  takeVariablesCost(): number {
    if (!this.variables) return 0;
    const c = this.variables.pendingCost;
    this.variables.pendingCost = 0;
    return c;
  }
}
