/**
 * Type checking of a mutation against the schema of a kind it mutates, in the manner of kube's type checking of
 * validating policies: the policy's variables and the mutation compile with `Object…` types from the kind's
 * schema, so misspelt fields are cel-go's `undefined field` errors before any request. kube compiles mutations
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

/** The compiler's text when the mutation does not type-check against `schema` (the kind's version schema). */
export function typeCheckMutation(mutation: Mutation, schema: JSONSchemaProps, ctx: TypeCheckContext): string | undefined {
  const composition = new CompositionEnv(ctx.hasParams, true, schemaObjectTypes(schema));
  for (const v of ctx.variables) composition.addVariable(v.name, v.expression);
  return compileMutation(mutation, composition)?.compiled.error?.detail;
}
