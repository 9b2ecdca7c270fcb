/**
 * Kubernetes' regex library: `find` and `findAll` with RE2 semantics (linear-time matching).
 */
import { walkExpr } from './ast.js';
import type { CheckedAst } from './checker.js';
import type { RE2JS } from 're2js';
import { member, type EstimateArg, type FunctionRegistry, type Overload } from './functions.js';
import { compileRE2, constantRegex, re2Find, re2FindAll } from './regex.js';
import { REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR, addRange, factorRange, mulRange, rangeOf, traversalCost } from './stdlib.js';
import { T } from './types.js';
import { CelError, actualSize, type Val, type Value } from './values.js';

function withRegex(pattern: string, fn: (re: Exclude<ReturnType<typeof compileRE2>, string>) => Val): Val {
  const re = compileRE2(pattern);
  return typeof re === 'string' ? new CelError(re) : fn(re);
}

const cost = (a: Value[]): number => traversalCost(1 + actualSize(a[0])) * Math.ceil(actualSize(a[1]) * REGEX_STRING_LENGTH_COST_FACTOR);

const estimate = (a: EstimateArg[]): { cost: { min: number; max: number }; resultSize: { min: number; max: number } } => ({
  cost: mulRange(factorRange(addRange(a[0].size, rangeOf(1)), STRING_TRAVERSAL_COST_FACTOR), factorRange(a[1].size, REGEX_STRING_LENGTH_COST_FACTOR)),
  resultSize: { min: 0, max: a[0].size.max },
});

/** A plan-time specialisation for a constant pattern (compiled, and its cost factor computed, once). */
function specializer(fn: (re: RE2JS, a: Value[]) => Val): (c: (Value | undefined)[]) => Pick<Overload, 'impl' | 'cost'> | undefined {
  return (c) => {
    const re = constantRegex(c[1]);
    if (!re) return undefined;
    const factor = Math.ceil(actualSize(c[1] as string) * REGEX_STRING_LENGTH_COST_FACTOR);
    return { impl: (a) => fn(re, a), cost: (a) => traversalCost(1 + actualSize(a[0])) * factor };
  };
}

const find = (re: RE2JS, a: Value[]): Val => re2Find(re, a[0] as string) ?? '';
const findAll = (re: RE2JS, a: Value[]): Val => re2FindAll(re, a[0] as string, -1);
const findAllN = (re: RE2JS, a: Value[]): Val => re2FindAll(re, a[0] as string, Number(a[2] as bigint));

export function registerKubernetesRegex(r: FunctionRegistry): void {
  r.add(
    'find',
    member('string_find_string', [T.string, T.string], T.string, (a) => withRegex(a[1] as string, (re) => find(re, a)), { cost, estimate, specialize: specializer(find) }),
  );
  r.add(
    'findAll',
    member('string_find_all_string', [T.string, T.string], T.list(T.string), (a) => withRegex(a[1] as string, (re) => findAll(re, a)), {
      cost,
      estimate,
      specialize: specializer(findAll),
    }),
    member('string_find_all_string_int', [T.string, T.string, T.int], T.list(T.string), (a) => withRegex(a[1] as string, (re) => findAllN(re, a)), {
      cost,
      estimate,
      specialize: specializer(findAllN),
    }),
  );
}

/**
 * The error cel-go reports when it plans the program (cel.OptimizeRegex precompiles constant patterns of `find`,
 * `findAll` and `matches`): Kubernetes words it "program instantiation failed: <error>".
 */
export function regexProgramError(ast: CheckedAst): string | undefined {
  let error: string | undefined;
  walkExpr(ast.expr, (e) => {
    if (error || e.kind !== 'call' || !e.target || !['find', 'findAll', 'matches'].includes(e.fn)) return;
    const arg = e.args[0];
    if (arg?.kind !== 'const' || typeof arg.value !== 'string') return;
    const re = compileRE2(arg.value);
    if (typeof re === 'string') error = re;
  });
  return error;
}
