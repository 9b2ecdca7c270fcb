/**
 * An authorization webhook's match conditions (Kubernetes' authorizer/cel): CEL expressions over `request`, the
 * SubjectAccessReviewSpec the webhook would be sent, each returning bool. All true: the webhook is asked; one false:
 * it is not (no opinion); an error when none is false: the webhook's failure policy decides.
 */
import { dynValue } from '../../lib/cel/dyn-values.js';
import type { Env, Program } from '../../lib/cel/env.js';
import { kubernetesEnv } from '../../lib/cel/libraries.js';
import { formatType, objectType, T, type Type } from '../../lib/cel/types.js';
import { isError } from '../../lib/cel/values.js';

/** celconfig.PerCallLimit. */
const perCallCostLimit = 1_000_000;

const selectorRequirement = (name: string) => objectType(name, { key: T.string, operator: T.string, values: T.list(T.string) });

/** kubernetes.SubjectAccessReviewSpec as kube declares it for authorization match conditions. */
const subjectAccessReviewSpecType: Type = objectType('kubernetes.SubjectAccessReviewSpec', {
  resourceAttributes: objectType('kubernetes.ResourceAttributes', {
    namespace: T.string,
    verb: T.string,
    group: T.string,
    version: T.string,
    resource: T.string,
    subresource: T.string,
    name: T.string,
    fieldSelector: objectType('kubernetes.FieldSelectorAttributes', { rawSelector: T.string, requirements: T.list(selectorRequirement('kubernetes.FieldSelectorRequirement')) }),
    labelSelector: objectType('kubernetes.LabelSelectorAttributes', { rawSelector: T.string, requirements: T.list(selectorRequirement('kubernetes.LabelSelectorRequirement')) }),
  }),
  nonResourceAttributes: objectType('kubernetes.NonResourceAttributes', { path: T.string, verb: T.string }),
  user: T.string,
  groups: T.list(T.string),
  extra: T.map(T.string, T.list(T.string)),
  uid: T.string,
});

let env: Env | undefined;

interface CompiledCondition {
  expression: string;
  program: Program;
}

/** Compiled match conditions; `compileMatchConditions` refuses ones that do not compile. */
export class AuthorizationMatchConditions {
  private constructor(private readonly conditions: readonly CompiledCondition[]) {}

  /**
   * Compiles the expressions; the error of each that does not compile or is not bool, by index, in kube's words
   * (`compilation failed: ERROR: <input>:1:1: ...`, `must evaluate to bool`).
   */
  static compile(expressions: readonly string[]): AuthorizationMatchConditions | { errors: { index: number; detail: string }[] } {
    env ??= kubernetesEnv().extend().declare('request', subjectAccessReviewSpecType);
    const errors: { index: number; detail: string }[] = [];
    const conditions: CompiledCondition[] = [];
    expressions.forEach((expression, index) => {
      const c = env!.compile(expression);
      if (!c.ast) return void errors.push({ index, detail: `compilation failed: ${c.errorText ?? 'invalid expression'}` });
      if (formatType(c.ast.type) !== 'bool') return void errors.push({ index, detail: 'must evaluate to bool' });
      conditions.push({ expression, program: env!.program(c.ast) });
    });
    return errors.length ? { errors } : new AuthorizationMatchConditions(conditions);
  }

  get size(): number {
    return this.conditions.length;
  }

  /**
   * Whether the webhook is asked about `spec` (a SubjectAccessReviewSpec as sent, unset fields absent): false at
   * the first false condition; otherwise an error when some could not be evaluated (kube's aggregate of
   * `cel evaluation error: expression '<e>' resulted in error: <cause>`); else true.
   */
  evaluate(spec: Record<string, unknown>): { matches: boolean } | { error: string } {
    const request = dynValue(spec);
    const errors: string[] = [];
    for (const c of this.conditions) {
      const result = c.program.eval({ request }, { costLimit: perCallCostLimit });
      const cause = result.costLimitExceeded ? 'operation cancelled: actual cost limit exceeded' : result.value === undefined ? 'no result' : isError(result.value) ? result.value.message : undefined;
      if (cause !== undefined) errors.push(`cel evaluation error: expression '${c.expression}' resulted in error: ${cause}`);
      else if (result.value !== true) return { matches: false };
    }
    if (errors.length) return { error: errors.length === 1 ? errors[0]! : `[${[...new Set(errors)].join(', ')}]` };
    return { matches: true };
  }
}
