/**
 * Static (worst-case) cost estimation of a checked expression, following cel-go's checker.Cost with Kubernetes'
 * CostEstimator: identifiers and field selections cost 1, literals 0, list/map literals 10/30 plus their elements,
 * calls their overload's estimate plus their arguments, comprehensions their range size times the cost of one
 * iteration. Sizes of strings, lists and maps come from literals or, through field paths from the rule's variables,
 * from the schema's size limits (maxLength, maxItems, maxProperties or the request-size bound).
 */
import type { Expr } from './ast.js';
import { ACCUMULATOR } from './ast.js';
import type { CheckedAst } from './checker.js';
import type { EstimateArg, FunctionRegistry, Range } from './functions.js';
import type { Type } from './types.js';
import { codePointLength, type Value } from './values.js';

/** math.MaxUint64 as cel-go's estimates saturate at it. */
export const MAX_COST = 18446744073709551615;

const unknownSize = (): Range => ({ min: 0, max: MAX_COST });

function add(a: Range, b: Range): Range {
  return { min: Math.min(a.min + b.min, MAX_COST), max: Math.min(a.max + b.max, MAX_COST) };
}

function mul(a: Range, b: Range): Range {
  return { min: Math.min(a.min * b.min, MAX_COST), max: Math.min(a.max * b.max, MAX_COST) };
}

function union(a: Range, b: Range): Range {
  return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
}

/** Sizes of the data below the rule's variables, by field path (`spec`, `@items`, `@keys`, `@values`). */
export type SizeEstimator = (path: string[]) => Range | undefined;

interface LocalVar {
  path: string[] | undefined;
  size: Range | undefined;
}

class Coster {
  private readonly paths = new Map<number, string[]>();
  private readonly sizes = new Map<number, Range>();
  private readonly elemSizes = new Map<number, Range>();
  private readonly locals = new Map<string, LocalVar[]>();

  constructor(
    private readonly ast: CheckedAst,
    private readonly functions: FunctionRegistry,
    private readonly sizeEstimator: SizeEstimator,
  ) {}

  private type(e: Expr): Type | undefined {
    return this.ast.types.get(e.id);
  }

  private pushLocal(name: string, v: LocalVar): void {
    const stack = this.locals.get(name) ?? [];
    stack.push(v);
    this.locals.set(name, stack);
  }

  private popLocal(name: string): void {
    this.locals.get(name)?.pop();
  }

  private peekLocal(name: string): LocalVar | undefined {
    const s = this.locals.get(name);
    return s?.length ? s[s.length - 1] : undefined;
  }

  private path(e: Expr): string[] | undefined {
    if (e.kind === 'ident') {
      const l = this.peekLocal(e.name);
      if (l) return l.path;
    }
    return this.paths.get(e.id);
  }

  /** cel-go's computeSize. */
  size(e: Expr): Range | undefined {
    const known = this.sizes.get(e.id);
    if (known) return known;
    if (e.kind === 'const') {
      const v = e.value;
      if (typeof v === 'string') return { min: codePointLength(v), max: codePointLength(v) };
      if (v instanceof Uint8Array) return { min: v.length, max: v.length };
    }
    if (e.kind === 'list') return { min: e.elements.length, max: e.elements.length };
    if (e.kind === 'map') return { min: e.entries.length, max: e.entries.length };
    const p = this.path(e);
    if (p && p.length && p[0] !== ACCUMULATOR) {
      const s = this.sizeEstimator(p);
      if (s) return s;
    }
    const t = this.type(e);
    if (t && ((t.kind === 'prim' && t.name !== 'string' && t.name !== 'bytes' && t.name !== 'null_type') || t.kind === 'error')) return { min: 1, max: 1 };
    if (e.kind === 'ident') {
      const l = this.peekLocal(e.name);
      if (l?.size) return l.size;
    }
    return undefined;
  }

  private sizeOrUnknown(e: Expr): Range {
    return this.size(e) ?? unknownSize();
  }

  private elemSize(e: Expr): Range | undefined {
    const known = this.elemSizes.get(e.id);
    if (known) return known;
    const p = this.path(e);
    if (p && p[0] !== ACCUMULATOR) return this.sizeEstimator([...p, '@items']);
    return undefined;
  }

  cost(e: Expr): Range {
    switch (e.kind) {
      case 'const':
        return { min: 0, max: 0 };
      case 'ident': {
        const l = this.peekLocal(e.name);
        this.paths.set(e.id, l?.path ?? [e.name]);
        return { min: 1, max: 1 };
      }
      case 'select': {
        if (e.testOnly) return this.cost(e.operand);
        let sum = this.cost(e.operand);
        const ref = this.ast.refs.get(e.id);
        if (ref?.kind === 'var') {
          this.paths.set(e.id, [ref.name]);
          return { min: 1, max: 1 };
        }
        const t = this.type(e.operand);
        if (t && (t.kind === 'map' || t.kind === 'object' || t.kind === 'var' || t.kind === 'param')) sum = add(sum, { min: 1, max: 1 });
        const p = this.path(e.operand);
        if (p) this.paths.set(e.id, [...p, e.field]);
        return sum;
      }
      case 'list': {
        let sum: Range = { min: 0, max: 0 };
        let elem: Range | undefined;
        for (const x of e.elements) {
          sum = add(sum, this.cost(x));
          const s = this.sizeOrUnknown(x);
          elem = elem ? union(elem, s) : s;
        }
        if (elem) this.elemSizes.set(e.id, elem);
        return add(sum, { min: 10, max: 10 });
      }
      case 'map': {
        let sum: Range = { min: 0, max: 0 };
        for (const en of e.entries) sum = add(add(sum, this.cost(en.key)), this.cost(en.value));
        return add(sum, { min: 30, max: 30 });
      }
      case 'struct': {
        let sum: Range = { min: 40, max: 40 };
        for (const f of e.fields) sum = add(sum, this.cost(f.value));
        return sum;
      }
      case 'comprehension':
        return this.costComprehension(e);
      case 'call':
        return this.costCall(e);
    }
  }

  private costComprehension(e: Extract<Expr, { kind: 'comprehension' }>): Range {
    const isBind = e.iterRange.kind === 'list' && e.iterRange.elements.length === 0 && e.loopCondition.kind === 'const' && e.loopCondition.value === false && e.accuVar !== ACCUMULATOR;
    let sum = add(this.cost(e.iterRange), this.cost(e.accuInit));
    this.pushLocal(e.accuVar, { path: this.path(e.accuInit), size: this.size(e.accuInit) });
    if (isBind) {
      sum = add(sum, this.cost(e.result));
      this.popLocal(e.accuVar);
      const rs = this.size(e.result);
      if (rs) this.sizes.set(e.id, rs);
      return sum;
    }
    const rangePath = this.path(e.iterRange);
    const rangeType = this.type(e.iterRange);
    const isList = rangeType?.kind === 'list';
    if (e.iterVar2 !== undefined) {
      this.pushLocal(e.iterVar, { path: rangePath ? [...rangePath, isList ? '@indices' : '@keys'] : undefined, size: isList ? { min: 1, max: 1 } : undefined });
      this.pushLocal(e.iterVar2, { path: rangePath ? [...rangePath, isList ? '@items' : '@values'] : undefined, size: isList ? this.elemSize(e.iterRange) : undefined });
    } else {
      this.pushLocal(e.iterVar, {
        path: rangePath ? [...rangePath, isList ? '@items' : '@keys'] : undefined,
        size: isList ? this.elemSize(e.iterRange) : undefined,
      });
    }
    const loop = this.cost(e.loopCondition);
    const step = this.cost(e.loopStep);
    this.popLocal(e.iterVar);
    if (e.iterVar2 !== undefined) this.popLocal(e.iterVar2);
    sum = add(sum, this.cost(e.result));
    this.popLocal(e.accuVar);
    const rangeCnt = this.sizeOrUnknown(e.iterRange);
    sum = add(sum, mul(rangeCnt, add(step, loop)));
    if (e.accuInit.kind === 'const') {
      const s = this.size(e.accuInit);
      if (s) this.sizes.set(e.id, s);
    } else if (e.accuInit.kind === 'list' || e.accuInit.kind === 'map') this.sizes.set(e.id, rangeCnt);
    return sum;
  }

  private arg(e: Expr): EstimateArg {
    return {
      type: this.type(e) ?? { kind: 'dyn' },
      size: this.sizeOrUnknown(e),
      ...(e.kind === 'const' ? { constant: e.value as Value } : {}),
      ...(this.elemSize(e) ? { elemSize: this.elemSize(e)! } : {}),
    };
  }

  private costCall(e: Extract<Expr, { kind: 'call' }>): Range {
    const ref = this.ast.refs.get(e.id);
    if (e.fn === 'dyn' && !e.target && e.args.length === 1) {
      const c = add({ min: 1, max: 1 }, this.cost(e.args[0]));
      const s = this.size(e.args[0]);
      if (s) this.sizes.set(e.id, s);
      return c;
    }
    const argCosts = e.args.map((a) => this.cost(a));
    const argSum = argCosts.reduce(add, { min: 0, max: 0 });
    const target = ref?.kind === 'fn' && ref.global ? undefined : e.target;
    let sum: Range = { min: 0, max: 0 };
    if (target) sum = this.cost(target);
    const name = ref?.kind === 'fn' ? ref.name : e.fn;
    const ids = ref?.kind === 'fn' ? ref.overloads : [];
    if (!ids.length) return sum;

    switch (name) {
      case '_&&_':
      case '_||_':
        return add(sum, { min: argCosts[0].min, max: argCosts[0].max + argCosts[1].max });
      case '_?_:_': {
        const s1 = this.size(e.args[1]);
        const s2 = this.size(e.args[2]);
        if (s1 && s2) this.sizes.set(e.id, union(s1, s2));
        return add(sum, add(argCosts[0], union(argCosts[1], argCosts[2])));
      }
      case '_[_]': {
        const p = this.path(e.args[0]);
        const t = this.type(e.args[0]);
        if (p) this.paths.set(e.id, [...p, t?.kind === 'map' ? '@values' : '@items']);
        return add(sum, add({ min: 1, max: 1 }, argSum));
      }
      default:
        break;
    }
    const decl = this.functions.get(name);
    const args = [...(target ? [target] : []), ...e.args].map((a) => this.arg(a));
    let fnCost: Range | undefined;
    let resultSize: Range | undefined;
    for (const id of ids) {
      const o = decl?.overloads.find((x) => x.id === id);
      const est = o?.estimate?.(args);
      const c = est ? add(est.cost, argSum) : add({ min: 1, max: 1 }, argSum);
      fnCost = fnCost ? union(fnCost, c) : c;
      if (est?.resultSize) resultSize = resultSize ? union(resultSize, est.resultSize) : est.resultSize;
    }
    if (name === '_+_' && ids.includes('add_list')) {
      const l = this.elemSize(e.args[0]);
      const r = this.elemSize(e.args[1]);
      if (l && r) this.elemSizes.set(e.id, union(l, r));
    }
    if (resultSize) this.sizes.set(e.id, resultSize);
    return add(sum, fnCost ?? { min: 1, max: 1 });
  }
}

/** The estimated cost range of a checked expression. */
export function estimateCost(ast: CheckedAst, functions: FunctionRegistry, sizes: SizeEstimator): Range {
  return new Coster(ast, functions, sizes).cost(ast.expr);
}
