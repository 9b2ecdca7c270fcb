/**
 * The CEL interpreter: an expression is planned once into closures and evaluated many times. Evaluation follows
 * cel-go: errors are values absorbed by `&&`, `||` and the quantifier macros, functions are dispatched among the
 * overloads the checker resolved, and every step is charged to a runtime cost counter as cel-go's CostTracker
 * charges it (identifiers and field selections 1, literals 0, calls by their overload's cost), aborting the
 * evaluation as soon as the cost exceeds its limit.
 */
import { ACCUMULATOR, type CallExpr, type ComprehensionExpr, type Expr, type ListExpr, type MapExpr, type SelectExpr, type StructExpr } from './ast.js';
import type { CheckedAst, Reference } from './checker.js';
import { qualifiedName } from './checker.js';
import { matchesRuntimeType, type EvalState, type FunctionRegistry, type Overload } from './functions.js';
import { TYPE_CONVERSIONS, listIndex, mapIndex } from './stdlib.js';
import type { StructType } from './struct-types.js';
import {
  CelError,
  CelMap,
  CostLimitExceeded,
  LiteralMap,
  Optional,
  TypeValue,
  isObjectValue,
  typeNameOf,
  type Val,
  type Value,
} from './values.js';

/** Resolves the variables of an evaluation (`self`, `oldSelf`, ...). */
export interface Activation {
  resolve(name: string): Value | undefined;
}

export interface InterpreterEnv {
  functions: FunctionRegistry;
  typeIdents: Map<string, unknown>;
  variables: Map<string, unknown>;
  resolveStruct?(name: string): StructType | undefined;
}

interface Scope {
  values: Val[];
  parent: Scope | undefined;
}

/** One evaluation: its variables, and its running cost (the state the functions are charged to). */
export interface Evaluation extends EvalState {
  act: Activation;
}

type Ctx = Evaluation;

type Interp = (ctx: Ctx, scope: Scope | undefined) => Val;

/** A compiled, reusable evaluation plan. */
export interface Plan {
  /** Evaluates the expression; throws {@link CostLimitExceeded} when the cost limit is exceeded. */
  eval(ev: Evaluation): Val;
}

function charge(st: EvalState, n: number): void {
  if (n === 0) return;
  st.cost += n;
  if (st.cost > st.limit) throw new CostLimitExceeded();
}

interface LocalRef {
  depth: number;
  slot: number;
}

class Planner {
  /** Compile-time comprehension scopes: variable names per runtime scope. */
  private readonly scopes: string[][] = [];
  /** Comprehension scopes in which `__result__ + [x]` may append in place. */
  private readonly appendScopes = new Set<string[]>();

  constructor(
    private readonly env: InterpreterEnv,
    private readonly checked: CheckedAst | undefined,
  ) {}

  private ref(e: Expr): Reference | undefined {
    return this.checked?.refs.get(e.id);
  }

  private local(name: string): LocalRef | undefined {
    for (let d = 0; d < this.scopes.length; d++) {
      const s = this.scopes[this.scopes.length - 1 - d];
      const slot = s.lastIndexOf(name);
      if (slot >= 0) return { depth: d, slot };
    }
    return undefined;
  }

  plan(e: Expr): Interp {
    switch (e.kind) {
      case 'const': {
        const v = e.value;
        return () => v;
      }
      case 'ident':
        return this.planIdent(e.name, this.ref(e));
      case 'select':
        return this.planSelect(e);
      case 'call':
        return this.planCall(e);
      case 'list':
        return this.planList(e);
      case 'map':
        return this.planMap(e);
      case 'struct':
        return this.planStruct(e);
      case 'comprehension':
        return this.planComprehension(e);
    }
  }

  private planIdent(name: string, ref: Reference | undefined): Interp {
    if (ref?.kind === 'type') {
      const v = new TypeValue(ref.name);
      return () => v;
    }
    if (ref?.kind === 'var') return this.planVariable(ref.name);
    if (!name.startsWith('.')) {
      const l = this.local(name);
      if (l) {
        const { depth, slot } = l;
        return (ctx, scope) => {
          charge(ctx, 1);
          let s = scope!;
          for (let i = 0; i < depth; i++) s = s.parent!;
          return s.values[slot];
        };
      }
    }
    const bare = name.replace(/^\./, '');
    if (this.checked) return this.planVariable(bare);
    // unchecked: a variable if bound at runtime, else a type name, else an error
    const typeName = this.env.typeIdents.has(bare) ? new TypeValue(bare) : undefined;
    return (ctx) => {
      charge(ctx, 1);
      const v = ctx.act.resolve(bare);
      if (v !== undefined) return v;
      if (typeName) return typeName;
      return new CelError(`undeclared reference to '${bare}' (in container '')`);
    };
  }

  private planVariable(name: string): Interp {
    return (ctx) => {
      charge(ctx, 1);
      const v = ctx.act.resolve(name);
      return v === undefined ? new CelError(`no such attribute: ${name}`) : v;
    };
  }

  private planSelect(e: SelectExpr): Interp {
    const ref = this.ref(e);
    if (ref) return this.planIdent(qualifiedName(e) ?? e.field, ref);
    if (!this.checked && !e.testOnly) {
      // unchecked qualified names (a.b.c bound as one variable)
      const qn = qualifiedName(e);
      if (qn !== undefined && !this.local(qn.split('.')[0])) {
        const parts = qn.split('.');
        const operand = this.plan(e.operand);
        const field = e.field;
        return (ctx, scope) => {
          for (let n = parts.length; n > 1; n--) {
            const v = ctx.act.resolve(parts.slice(0, n).join('.'));
            if (v !== undefined) {
              charge(ctx, 1);
              let cur: Val = v;
              for (const f of parts.slice(n)) cur = selectField(cur, f, ctx);
              return cur;
            }
          }
          return selectField(operand(ctx, scope), field, ctx);
        };
      }
    }
    const operand = this.plan(e.operand);
    const field = e.field;
    if (e.testOnly) return (ctx, scope) => presence(operand(ctx, scope), field);
    if (!isAttributeExpr(e.operand)) {
      // cel-go wraps a non-attribute operand in a relative attribute, charged on its own
      return (ctx, scope) => {
        const o = operand(ctx, scope);
        charge(ctx, 1);
        return selectField(o, field, ctx);
      };
    }
    return (ctx, scope) => selectField(operand(ctx, scope), field, ctx);
  }

  private planList(e: ListExpr): Interp {
    const optional = new Set(e.optionalIndices);
    if (!optional.size && e.elements.every((x) => x.kind === 'const')) {
      const v = e.elements.map((x) => (x as { value: Value }).value);
      return () => v;
    }
    const elems = e.elements.map((x) => this.plan(x));
    return (ctx, scope) => {
      const out: Value[] = [];
      for (let i = 0; i < elems.length; i++) {
        const v = elems[i](ctx, scope);
        if (v instanceof CelError) return v;
        if (optional.has(i)) {
          if (!(v instanceof Optional)) return new CelError('no such overload');
          if (v.hasValue) out.push(v.value!);
        } else out.push(v);
      }
      charge(ctx, 10);
      return out;
    };
  }

  private planMap(e: MapExpr): Interp {
    const allConst = e.entries.every((en) => !en.optional && en.key.kind === 'const' && en.value.kind === 'const');
    const entries = e.entries.map((en) => ({ key: this.plan(en.key), value: this.plan(en.value), optional: en.optional }));
    const build = (ctx: Ctx, scope: Scope | undefined): Val => {
      const m = new LiteralMap();
      for (const en of entries) {
        const k = en.key(ctx, scope);
        if (k instanceof CelError) return k;
        const v = en.value(ctx, scope);
        if (v instanceof CelError) return v;
        let value: Value = v;
        if (en.optional) {
          if (!(v instanceof Optional)) return new CelError('no such overload');
          if (!v.hasValue) continue;
          value = v.value!;
        }
        if (m.hasKey(k)) return new CelError(`Failed with repeated key: ${typeof k === 'string' ? k : String(k)}`);
        if (!m.set(k, value)) return new CelError(`unsupported key type: ${typeNameOf(k)}`);
      }
      return m;
    };
    if (allConst) {
      const v = build({ act: { resolve: () => undefined }, cost: 0, limit: Infinity }, undefined);
      return () => v;
    }
    return (ctx, scope) => {
      const m = build(ctx, scope);
      charge(ctx, 30);
      return m;
    };
  }

  /** Message construction: fields in source order, then cel-go's struct creation cost (40). */
  private planStruct(e: StructExpr): Interp {
    const st = this.env.resolveStruct?.(e.typeName.replace(/^\./, ''));
    if (!st) return () => new CelError(`unknown type: ${e.typeName}`);
    const fields = e.fields.map((f) => ({ name: f.name, optional: f.optional, value: this.plan(f.value) }));
    return (ctx, scope) => {
      const values = new Map<string, Value>();
      for (const f of fields) {
        const v = f.value(ctx, scope);
        if (v instanceof CelError) return v;
        if (!f.optional) values.set(f.name, v);
        else if (!(v instanceof Optional)) return new CelError('no such overload');
        else if (v.hasValue) values.set(f.name, v.value!);
      }
      charge(ctx, 40);
      return st.construct(values);
    };
  }

  private planComprehension(e: ComprehensionExpr): Interp {
    const range = this.plan(e.iterRange);
    const init = this.plan(e.accuInit);
    // runtime scopes: [accu] then [iterVar, iterVar2?]
    const accuScope = [e.accuVar];
    this.scopes.push(accuScope);
    const appendMode = e.accuVar === ACCUMULATOR && e.accuInit.kind === 'list' && e.accuInit.elements.length === 0;
    const loopScope = e.iterVar2 !== undefined ? [e.iterVar, e.iterVar2] : [e.iterVar];
    this.scopes.push(loopScope);
    if (appendMode) this.appendScopes.add(accuScope);
    const cond = this.plan(e.loopCondition);
    const step = this.plan(e.loopStep);
    this.appendScopes.delete(accuScope);
    this.scopes.pop();
    const result = this.plan(e.result);
    this.scopes.pop();
    const two = e.iterVar2 !== undefined;
    return (ctx, scope) => {
      const r = range(ctx, scope);
      if (r instanceof CelError) return r;
      let items: Value[];
      let values: Value[] | undefined;
      if (Array.isArray(r)) {
        if (two) {
          items = r.map((_, i) => BigInt(i));
          values = r;
        } else items = r;
      } else if (r instanceof CelMap) {
        items = r.keys();
        if (two) values = items.map((k) => r.get(k) as Value);
      } else if (isObjectValue(r)) {
        items = r.fieldNames();
        if (two) values = items.map((k) => r.field(k as string) as Value);
      } else {
        return new CelError(`expression of type '${typeNameOf(r)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
      }
      const a0 = init(ctx, scope);
      const accu: Scope = { values: [appendMode && Array.isArray(a0) ? [] : a0], parent: scope };
      const loop: Scope = { values: two ? [undefined as unknown as Val, undefined as unknown as Val] : [undefined as unknown as Val], parent: accu };
      for (let i = 0; i < items.length; i++) {
        loop.values[0] = items[i];
        if (two) loop.values[1] = values![i];
        const c = cond(ctx, loop);
        if (c === false) break;
        accu.values[0] = step(ctx, loop);
      }
      return result(ctx, accu);
    };
  }

  private planCall(e: CallExpr): Interp {
    switch (e.fn) {
      case '_&&_':
      case '_||_':
        return this.planLogical(e, e.fn === '_&&_');
      case '_?_:_':
        return this.planConditional(e);
      case '@not_strictly_false': {
        const arg = this.plan(e.args[0]);
        return (ctx, scope) => {
          const v = arg(ctx, scope);
          charge(ctx, 1);
          return typeof v === 'boolean' ? v : true;
        };
      }
      case '_[_]':
        return this.planIndex(e);
      case 'or':
      case 'orValue':
        if (e.target && e.args.length === 1) return this.planOptionalOr(e);
        break;
      default:
        break;
    }
    return this.planGenericCall(e);
  }

  private planGenericCall(e: CallExpr): Interp {
    const ref = this.ref(e);
    let name = e.fn;
    let target = e.target;
    if (ref?.kind === 'fn') {
      name = ref.name;
      if (ref.global) target = undefined;
    } else if (!this.checked && e.target) {
      const qn = qualifiedName(e.target);
      if (qn !== undefined && !this.local(qn.split('.')[0]) && this.env.functions.get(`${qn}.${e.fn}`) && !this.env.variables.has(qn.split('.')[0])) {
        name = `${qn}.${e.fn}`;
        target = undefined;
      }
    }
    const decl = this.env.functions.get(name);
    if (!decl) {
      const args = [...(target ? [target] : []), ...e.args].map((a) => this.plan(a));
      return (ctx, scope) => {
        for (const a of args) {
          const v = a(ctx, scope);
          if (v instanceof CelError) return v;
        }
        return new CelError(`no such overload: ${name}`);
      };
    }
    const member = !!target;
    const candidates: Overload[] =
      ref?.kind === 'fn'
        ? ref.overloads.map((id) => decl.overloads.find((o) => o.id === id)!).filter(Boolean)
        : decl.overloads.filter((o) => o.member === member && o.params.length === e.args.length + (member ? 1 : 0));
    const argExprs = target ? [target, ...e.args] : e.args;
    const args = argExprs.map((a) => this.plan(a));

    // `x in [constant list]` is a set-membership test without a call cost (cel-go's decOptimize)
    const freeIn = name === '@in' && argExprs[1].kind === 'list' && argExprs[1].elements.every((x) => x.kind === 'const') && !argExprs[1].optionalIndices.length;
    const call = (ctx: Ctx, scope: Scope | undefined): Val => {
      // like cel-go, unary and binary calls evaluate every argument before looking at errors and are charged
      // either way; calls with more arguments stop at the first error without being charged
      const vals: Value[] = [];
      let err: CelError | undefined;
      for (const a of args) {
        const v = a(ctx, scope);
        if (v instanceof CelError) {
          if (args.length > 2) return v;
          err ??= v;
        } else vals.push(v);
      }
      if (err) {
        charge(ctx, 1);
        return err;
      }
      const o = pickOverload(candidates, vals);
      if (!o) {
        charge(ctx, 1);
        return new CelError(noOverloadText(name, vals, member));
      }
      const r = o.impl(vals, ctx);
      if (!freeIn) charge(ctx, o.cost ? o.cost(vals, r) : 1);
      return r;
    };

    // `__result__ + [x]` in a map/filter macro appends in place (same cost, no quadratic copying)
    if (name === '_+_' && this.isAccumulatorAppend(e)) {
      const list = e.args[1] as ListExpr;
      const elem = this.plan(list.elements[0]);
      const depth = this.local(ACCUMULATOR)!.depth;
      return (ctx, scope) => {
        charge(ctx, 1);
        const accu = findAccu(scope!, depth);
        const cur = accu.values[0];
        if (cur instanceof CelError) return cur;
        const v = elem(ctx, scope);
        if (v instanceof CelError) return v;
        charge(ctx, 10 + 1);
        (cur as Value[]).push(v);
        return cur;
      };
    }

    // constant folding of type conversions (cel-go's decOptimize)
    if (TYPE_CONVERSIONS.has(name) && argExprs.length === 1 && argExprs[0].kind === 'const') {
      const v = call({ act: { resolve: () => undefined }, cost: 0, limit: Infinity }, undefined);
      if (!(v instanceof CelError)) return () => v;
    }
    // the checker resolved the call to a single overload: bind it now (its runtime type check stays)
    if (ref?.kind === 'fn' && candidates.length === 1 && candidates[0].params.length === args.length) {
      return bindOverload(candidates[0], argExprs, args, freeIn);
    }
    return call;
  }

  private isAccumulatorAppend(e: CallExpr): boolean {
    const [a, b] = e.args;
    if (a.kind !== 'ident' || a.name !== ACCUMULATOR || b?.kind !== 'list' || b.elements.length !== 1 || b.optionalIndices.length) return false;
    const l = this.local(ACCUMULATOR);
    if (!l) return false;
    const scope = this.scopes[this.scopes.length - 1 - l.depth];
    return this.appendScopes.has(scope);
  }

  private planLogical(e: CallExpr, isAnd: boolean): Interp {
    const left = this.plan(e.args[0]);
    const right = this.plan(e.args[1]);
    const absorbing = !isAnd; // `true` absorbs for ||, `false` for &&
    return (ctx, scope) => {
      const l = left(ctx, scope);
      if (l === absorbing) return l;
      const r = right(ctx, scope);
      if (r === absorbing) return r;
      if (typeof l === 'boolean' && typeof r === 'boolean') return r;
      if (l instanceof CelError) return l;
      if (r instanceof CelError) return r;
      return new CelError(noOverloadText(isAnd ? '_&&_' : '_||_', [l, r], false));
    };
  }

  private planConditional(e: CallExpr): Interp {
    const cond = this.plan(e.args[0]);
    // a bare identifier as a branch is free (cel-go folds it into the conditional's attribute)
    const branch = (x: Expr): Interp => (x.kind === 'ident' ? this.free(this.plan(x)) : this.plan(x));
    const t = branch(e.args[1]);
    const f = branch(e.args[2]);
    return (ctx, scope) => {
      const c = cond(ctx, scope);
      if (c === true) return t(ctx, scope);
      if (c === false) return f(ctx, scope);
      if (c instanceof CelError) return c;
      return new CelError('no such overload');
    };
  }

  private free(i: Interp): Interp {
    return (ctx, scope) => {
      const before = ctx.cost;
      const v = i(ctx, scope);
      ctx.cost = before;
      return v;
    };
  }

  /** `opt.or(x)` and `opt.orValue(x)` evaluate their argument only when needed, at no cost of their own (cel-go). */
  private planOptionalOr(e: CallExpr): Interp {
    const ref = this.ref(e);
    if (ref?.kind === 'fn' && !ref.overloads.some((id) => id.startsWith('optional_'))) return this.planGenericCall(e);
    const target = this.plan(e.target!);
    const arg = this.plan(e.args[0]);
    const isOr = e.fn === 'or';
    return (ctx, scope) => {
      const t = target(ctx, scope);
      if (t instanceof CelError) return t;
      if (!(t instanceof Optional)) return new CelError('no such overload');
      if (t.hasValue) return isOr ? t : t.value!;
      const v = arg(ctx, scope);
      if (isOr && !(v instanceof CelError) && !(v instanceof Optional)) return new CelError('no such overload');
      return v;
    };
  }

  private planIndex(e: CallExpr): Interp {
    const operand = this.plan(e.args[0]);
    const indexExpr = e.args[1];
    const index = this.plan(indexExpr);
    const isAttr = indexExpr.kind === 'ident' || (indexExpr.kind === 'select' && !indexExpr.testOnly);
    const extra = (indexExpr.kind === 'const' ? 1 : isAttr ? 0 : 1) + (isAttributeExpr(e.args[0]) ? 0 : 1);
    return (ctx, scope) => {
      const o = operand(ctx, scope);
      const i = index(ctx, scope);
      charge(ctx, extra);
      if (o instanceof CelError) return o;
      if (i instanceof CelError) return i;
      return indexValue(o, i);
    };
  }
}

/**
 * Whether cel-go plans the expression as an attribute (variables, field selections, indexing, optional selections
 * and conditionals), to which a further selection or index adds only a qualifier.
 */
function isAttributeExpr(e: Expr): boolean {
  if (e.kind === 'ident') return true;
  if (e.kind === 'select') return !e.testOnly;
  if (e.kind === 'call') return e.fn === '_[_]' || e.fn === '_[?_]' || e.fn === '_?._' || e.fn === '_?_:_';
  return false;
}

function findAccu(scope: Scope, depth: number): Scope {
  let s = scope;
  for (let i = 0; i < depth; i++) s = s.parent!;
  return s;
}

/**
 * A call bound to its one overload: the same evaluation, errors, type check and cost as the generic call with
 * `pickOverload` over that single candidate, without choosing at runtime. Constant arguments may specialise the
 * overload (a constant regex pattern is compiled once).
 */
function bindOverload(o: Overload, argExprs: Expr[], args: Interp[], freeIn: boolean): Interp {
  let impl = o.impl;
  let cost = o.cost;
  if (o.specialize) {
    const s = o.specialize(argExprs.map((a) => (a.kind === 'const' ? a.value : undefined)));
    if (s) {
      impl = s.impl;
      cost = s.cost;
    }
  }
  // parameters whose runtime type needs checking (dyn and type parameters accept anything)
  const checks = o.params.map((t) => (t.kind === 'dyn' || t.kind === 'param' || t.kind === 'var' || t.kind === 'error' ? undefined : t));
  const finish = (ctx: Ctx, vals: Value[]): Val => {
    for (let i = 0; i < vals.length; i++) {
      const t = checks[i];
      if (t !== undefined && !matchesRuntimeType(t, vals[i])) {
        charge(ctx, 1);
        return new CelError('no such overload');
      }
    }
    const r = impl(vals, ctx);
    if (!freeIn) charge(ctx, cost ? cost(vals, r) : 1);
    return r;
  };
  switch (args.length) {
    case 0:
      return (ctx) => finish(ctx, []);
    case 1: {
      const a0 = args[0];
      return (ctx, scope) => {
        const v0 = a0(ctx, scope);
        if (v0 instanceof CelError) {
          charge(ctx, 1);
          return v0;
        }
        return finish(ctx, [v0]);
      };
    }
    case 2: {
      const a0 = args[0];
      const a1 = args[1];
      return (ctx, scope) => {
        const v0 = a0(ctx, scope);
        const v1 = a1(ctx, scope);
        if (v0 instanceof CelError) {
          charge(ctx, 1);
          return v0;
        }
        if (v1 instanceof CelError) {
          charge(ctx, 1);
          return v1;
        }
        return finish(ctx, [v0, v1]);
      };
    }
    default:
      return (ctx, scope) => {
        const vals: Value[] = new Array<Value>(args.length);
        for (let i = 0; i < args.length; i++) {
          const v = args[i](ctx, scope);
          if (v instanceof CelError) return v;
          vals[i] = v;
        }
        return finish(ctx, vals);
      };
  }
}

function pickOverload(candidates: Overload[], args: Value[]): Overload | undefined {
  for (const o of candidates) {
    if (o.params.length !== args.length) continue;
    let ok = true;
    for (let i = 0; i < args.length && ok; i++) ok = matchesRuntimeType(o.params[i], args[i]);
    if (ok) return o;
  }
  return undefined;
}

/** cel-go's runtime text when no overload accepts the arguments (the function and types are not part of it). */
function noOverloadText(_name: string, _args: Val[], _member: boolean): string {
  return 'no such overload';
}

function indexValue(o: Value, i: Value): Val {
  if (o instanceof Optional) {
    if (!o.hasValue) return Optional.NONE;
    const inner = indexValue(o.value!, i);
    if (inner instanceof CelError) return /no such key|out of range|out of bounds/.test(inner.message) ? Optional.NONE : inner;
    return Optional.of(inner);
  }
  if (Array.isArray(o)) return listIndex(o, i);
  if (o instanceof CelMap) return mapIndex(o, i);
  if (isObjectValue(o) && typeof i === 'string') {
    const v = o.field(i);
    return v === undefined ? new CelError(`no such key: ${i}`) : v;
  }
  return new CelError('no such overload');
}

function selectField(operand: Val, field: string, st: EvalState): Val {
  charge(st, 1);
  // objects first: the commonest operand (the kinds below are disjoint)
  if (isObjectValue(operand)) {
    const v = operand.field(field);
    return v === undefined ? new CelError(`no such key: ${field}`) : v;
  }
  if (operand instanceof CelError) return operand;
  if (operand instanceof Optional) {
    if (!operand.hasValue) return Optional.NONE;
    const inner = selectField(operand.value!, field, { cost: 0, limit: Infinity });
    if (inner instanceof CelError) return /no such key/.test(inner.message) ? Optional.NONE : inner;
    return Optional.of(inner);
  }
  if (operand instanceof CelMap) {
    const v = operand.get(field);
    if (v instanceof CelError) return v;
    return v === undefined ? new CelError(`no such key: ${field}`) : v;
  }
  return new CelError(`type '${typeNameOf(operand)}' does not support field selection`);
}

function presence(operand: Val, field: string): Val {
  if (operand instanceof CelError) return operand;
  if (operand instanceof Optional) {
    if (!operand.hasValue) return false;
    return presence(operand.value!, field);
  }
  if (operand instanceof CelMap) {
    const v = operand.get(field);
    if (v instanceof CelError) return v;
    return v !== undefined;
  }
  if (isObjectValue(operand)) {
    // data that cannot be converted (Kubernetes' "invalid data" errors) makes has() an error too
    const v = operand.field(field) as Val | undefined;
    return v instanceof CelError ? v : v !== undefined;
  }
  return new CelError(`invalid type for field selection.`);
}

/** Plans an expression (checked or not) for evaluation. */
export function planExpr(expr: Expr, env: InterpreterEnv, checked?: CheckedAst): Plan {
  const root = new Planner(env, checked).plan(expr);
  return {
    eval(ev: Evaluation): Val {
      return root(ev, undefined);
    },
  };
}

export { CostLimitExceeded };
