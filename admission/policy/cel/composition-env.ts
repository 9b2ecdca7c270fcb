/**
 * The environments one policy's expressions compile in (Kubernetes' CompositionEnv): the admission environment
 * for the policy's optional variables, plus `variables`, a kubernetes.variables object whose fields are the
 * variables compiled so far, typed by their results. Variables therefore see only the variables before them.
 */
import type { Env } from '../../../lib/cel/env.js';
import { dynamicPatchTypes, kubernetesPatchTypes } from '../../../lib/cel/k8s-patch-types.js';
import type { StructTypeResolver } from '../../../lib/cel/struct-types.js';
import { T, type Type } from '../../../lib/cel/types.js';
import type { NamedExpression } from './admission-activation.js';
import { admissionEnv } from './admission-cel-env.js';
import { compileExpression, type CompiledExpression } from './compiled-expression.js';

export class CompositionEnv {
  readonly variables: NamedExpression[] = [];
  private readonly fields = new Map<string, Type>();
  private readonly withAuthorizer: Env;
  private readonly withoutAuthorizer: Env;
  private withPatchTypes?: Env;

  /**
   * `declareVariables`: false compiles as kube's stateless compiler does (no `variables` at all). `patchTypes`:
   * the JSONPatch and Object types mutations construct (kube's dynamic ones unless type checking against a schema).
   */
  constructor(
    hasParams: boolean,
    declareVariables = true,
    private readonly patchTypes: StructTypeResolver = dynamicPatchTypes,
  ) {
    const variablesType: Type = { kind: 'object', name: 'kubernetes.variables', decl: { name: 'kubernetes.variables', field: (f) => this.fields.get(f) } };
    const make = (hasAuthorizer: boolean): Env => {
      const env = admissionEnv({ hasParams, hasAuthorizer }).extend();
      return declareVariables ? env.declare('variables', variablesType) : env;
    };
    this.withAuthorizer = make(true);
    this.withoutAuthorizer = make(false);
  }

  /** Compiles a variable (any result type) and makes it visible to what compiles after it. */
  addVariable(name: string, expression: string): CompiledExpression {
    const compiled = compileExpression(this.withAuthorizer, expression);
    this.fields.set(name, compiled.error ? T.dyn : compiled.outputType);
    this.variables.push({ name, compiled });
    return compiled;
  }

  compile(expression: string, returnTypes: readonly Type[], hasAuthorizer: boolean): CompiledExpression {
    return compileExpression(hasAuthorizer ? this.withAuthorizer : this.withoutAuthorizer, expression, returnTypes);
  }

  /** Compiles a mutation's expression: the authorizer, plus the JSONPatch and Object types (kube's HasPatchTypes). */
  compileMutation(expression: string, returnType: Type): CompiledExpression {
    this.withPatchTypes ??= this.withAuthorizer.extend().use(kubernetesPatchTypes(this.patchTypes));
    return compileExpression(this.withPatchTypes, expression, [returnType]);
  }
}

/** What each kind of policy expression must evaluate to. */
export const RETURN_TYPES = {
  validation: [T.bool],
  matchCondition: [T.bool],
  messageExpression: [T.string],
  auditAnnotation: [T.string, T.null],
} as const;
