/**
 * The CEL expressions of a JWT authenticator (Kubernetes' authentication/cel compiler): claim mappings and claim
 * validation rules see `claims` (the token's payload, a map), user validation rules see `user` (a
 * kubernetes.UserInfo). Kubernetes' base libraries and per-call cost limit apply.
 */
import { walkExpr } from '../../../lib/cel/ast.js';
import type { CheckedAst } from '../../../lib/cel/checker.js';
import { dynValue } from '../../../lib/cel/dyn-values.js';
import type { Env, Program } from '../../../lib/cel/env.js';
import { kubernetesEnv } from '../../../lib/cel/libraries.js';
import { T, USER_INFO_TYPE } from '../../../lib/cel/types.js';
import { isError, type Val } from '../../../lib/cel/values.js';
import type { UserInfo } from '../../../core/contracts/authenticator.js';

/** celconfig.PerCallLimit, the cost limit of every CEL evaluation in Kubernetes' base environment. */
const PER_CALL_COST_LIMIT = 1_000_000;

export interface ClaimExpression {
  readonly text: string;
  readonly ast: CheckedAst;
  readonly program: Program;
}

let claimsEnv: Env | undefined;
let userEnv: Env | undefined;

function compileIn(env: Env, text: string): ClaimExpression | string {
  const compiled = env.compile(text);
  if (!compiled.ast) return `compilation failed: ${compiled.errorText ?? 'invalid expression'}`;
  return { text, ast: compiled.ast, program: env.program(compiled.ast) };
}

/** A claim mapping or claim validation expression, or kube's compile error detail. */
export function compileClaimExpression(text: string): ClaimExpression | string {
  return compileIn((claimsEnv ??= kubernetesEnv().extend().declare('claims', T.map(T.string, T.dyn))), text);
}

/** A user validation expression, or kube's compile error detail. */
export function compileUserExpression(text: string): ClaimExpression | string {
  return compileIn((userEnv ??= kubernetesEnv().extend().declare('user', USER_INFO_TYPE)), text);
}

/** Whether the expression reads `claims.<claim>` (or `claims.?<claim>`), as kube's hasSelectExp finds it. */
export function selectsClaim(e: ClaimExpression, claim: string): boolean {
  let found = false;
  walkExpr(e.ast.expr, (x) => {
    if (x.kind === 'select' && x.field === claim && x.operand.kind === 'ident' && x.operand.name === 'claims') found = true;
    if (x.kind === 'call' && x.fn === '_?._' && x.args[0]?.kind === 'ident' && x.args[0].name === 'claims') {
      const field = x.args[1];
      if (field?.kind === 'const' && field.value === claim) found = true;
    }
  });
  return found;
}

/** What an evaluation gave: its value, or its error's text. */
export type Evaluation = { value: Val; error?: undefined } | { value?: undefined; error: string };

/** Evaluates over the token's claims. */
export function evaluateOnClaims(e: ClaimExpression, claims: Record<string, unknown>): Evaluation {
  return evaluate(e, { claims: dynValue(claims) });
}

/** Evaluates over the user the mappings made. */
export function evaluateOnUser(e: ClaimExpression, user: UserInfo): Evaluation {
  return evaluate(e, { user: dynValue({ username: user.username, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} }) });
}

function evaluate(e: ClaimExpression, vars: Record<string, ReturnType<typeof dynValue>>): Evaluation {
  const result = e.program.eval(vars, { costLimit: PER_CALL_COST_LIMIT });
  if (result.costLimitExceeded) return { error: 'operation cancelled: actual cost limit exceeded' };
  const value = result.value;
  if (value === undefined) return { error: 'no result' };
  if (isError(value)) return { error: value.message };
  return { value };
}

/** kube's convertCELValueToStringList: a string (none when empty) or a list of strings. */
export function stringList(value: Val): string[] | string {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return 'expression must return a string or a list of strings';
}
