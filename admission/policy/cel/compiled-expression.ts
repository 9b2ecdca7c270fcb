/**
 * One admission CEL expression compiled once (Kubernetes' CompileCELExpression): parsed, type-checked, its result
 * type checked against what the expression kind must return, and planned for evaluation. Errors carry kube's texts
 * (`compilation failed: ERROR: <input>:1:5: ...`, `must evaluate to bool but got string`).
 */
import type { Env, Program } from '../../../lib/cel/env.js';
import { regexProgramError } from '../../../lib/cel/k8s-regex.js';
import { T, type Type } from '../../../lib/cel/types.js';

/** celconfig.PerCallLimit */
export const PER_CALL_LIMIT = 1_000_000;

export interface CelCompileError {
  /** 'Invalid' for the expression's fault, 'Internal' for kapi's. */
  type: 'Invalid' | 'Internal';
  detail: string;
}

export interface CompiledExpression {
  expression: string;
  program?: Program;
  /** The checked result type (dyn when compilation failed). */
  outputType: Type;
  /** The declared variables the expression reads (`object`, `namespaceObject`, `variables`, ...). */
  references: ReadonlySet<string>;
  error?: CelCompileError;
}

/** cel-go's Type.String(): full names of the well-known types, parameters in parentheses. */
export function celTypeString(t: Type): string {
  switch (t.kind) {
    case 'prim':
      return t.name;
    case 'dyn':
      return 'dyn';
    case 'error':
      return '*error*';
    case 'list':
      return `list(${celTypeString(t.elem)})`;
    case 'map':
      return `map(${celTypeString(t.key)}, ${celTypeString(t.value)})`;
    case 'type':
      return t.param ? `type(${celTypeString(t.param)})` : 'type';
    case 'opaque':
      return t.params.length ? `${t.name}(${t.params.map(celTypeString).join(', ')})` : t.name;
    case 'object':
    case 'param':
      return t.name;
    case 'var':
      return 'dyn';
  }
}

const NONE: ReadonlySet<string> = new Set();

function exactlyEqual(a: Type, b: Type): boolean {
  return celTypeString(a) === celTypeString(b);
}

/** Compiles an expression; `returnTypes` undefined accepts any result type (variables). */
export function compileExpression(env: Env, expression: string, returnTypes?: readonly Type[]): CompiledExpression {
  const c = env.compile(expression);
  if (!c.ast) return { expression, outputType: T.dyn, references: NONE, error: { type: 'Invalid', detail: `compilation failed: ${c.errorText}` } };
  const out = c.ast.type;
  const references = new Set<string>();
  for (const r of c.ast.refs.values()) if (r.kind === 'var') references.add(r.name);
  if (returnTypes && !returnTypes.some((r) => exactlyEqual(out, r))) {
    const detail =
      returnTypes.length === 1
        ? `must evaluate to ${celTypeString(returnTypes[0])} but got ${celTypeString(out)}`
        : `must evaluate to one of [${returnTypes.map(celTypeString).join(' ')}] but got ${celTypeString(out)}`;
    return { expression, outputType: out, references, error: { type: 'Invalid', detail } };
  }
  const programError = regexProgramError(c.ast);
  if (programError) return { expression, outputType: out, references, error: { type: 'Internal', detail: `program instantiation failed: ${programError}` } };
  return { expression, program: env.program(c.ast), outputType: out, references };
}
