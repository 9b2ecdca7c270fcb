/**
 * Type checking of a policy's mutations against the schema of a kind it mutates, in the manner of kube's type
 * checking of validating policies: the policy's variables and the mutations compile with `Object…` types from the
 * kind's schema, so misspelt fields are cel-go's `undefined field` errors before any request. kube compiles mutations
 * with dyn-typed Object types only (such a field fails when the mutation runs), so the result is a warning, never
 * a reason to refuse the policy.
 */
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';
import { CompositionEnv } from '../cel/composition-env.js';
import { compileMutation, type Mutation } from './compiled-mutation.js';
import { schemaObjectTypes } from './schema-object-types.js';

export interface TypeCheckContext {
  hasParams: boolean;
  variables: readonly { name: string; expression: string }[];
}

const COMPILATION_FAILED = 'compilation failed: ';

/**
 * For each mutation, the compiler's text when it does not type-check against `schema` (the kind's version schema):
 * cel-go's issues (`ERROR: <input>:1:…` with their source snippets), or the result type that does not fit.
 */
export function typeCheckMutations(mutations: readonly Mutation[], schema: JSONSchemaProps, ctx: TypeCheckContext): (string | undefined)[] {
  const composition = new CompositionEnv(ctx.hasParams, true, schemaObjectTypes(schema));
  for (const v of ctx.variables) composition.addVariable(v.name, v.expression);
  return mutations.map((m) => {
    const detail = compileMutation(m, composition)?.compiled.error?.detail;
    return detail?.startsWith(COMPILATION_FAILED) ? detail.slice(COMPILATION_FAILED.length) : detail;
  });
}
