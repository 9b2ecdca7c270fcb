/**
 * The CEL type checker, following cel-go's checker: identifier and qualified-name resolution, field selection on
 * declared objects and maps, overload resolution with type parameters, homogeneous aggregate literals (optional),
 * comprehension scoping, and cel-go's error texts.
 */
import type { CallExpr, ComprehensionExpr, Expr, SelectExpr, SourceInfo, StructExpr } from './ast.js';
import type { FunctionDecl, FunctionRegistry } from './functions.js';
import type { StructType } from './struct-types.js';
import {
  Mapping,
  T,
  collectParams,
  formatType,
  instantiate,
  isAssignable,
  isAssignableList,
  isDynOrError,
  mostGeneral,
  substitute,
  typeEquals,
  type Type,
} from './types.js';
import { Duration, Optional, Timestamp, UInt, type Value } from './values.js';

export interface CheckIssue {
  offset: number;
  message: string;
}

/** How the checker resolved an identifier, a select chain or a call. */
export type Reference =
  | { kind: 'var'; name: string }
  | { kind: 'type'; name: string }
  | { kind: 'fn'; name: string; overloads: string[]; global: boolean };

export interface CheckedAst {
  expr: Expr;
  source: SourceInfo;
  types: Map<number, Type>;
  refs: Map<number, Reference>;
  /** The result type of the whole expression. */
  type: Type;
}

export interface CheckerEnv {
  variables: Map<string, Type>;
  functions: FunctionRegistry;
  /** Type identifiers usable as values (`int`, `google.protobuf.Timestamp`, ...) and the types they denote. */
  typeIdents: Map<string, Type>;
  /** Message types (`Foo{...}`); none when absent. */
  resolveStruct?(name: string): StructType | undefined;
}

export function literalType(v: Value): Type {
  switch (typeof v) {
    case 'bigint':
      return T.int;
    case 'number':
      return T.double;
    case 'string':
      return T.string;
    case 'boolean':
      return T.bool;
    default:
      break;
  }
  if (v === null) return T.null;
  if (v instanceof UInt) return T.uint;
  if (v instanceof Uint8Array) return T.bytes;
  if (v instanceof Timestamp) return T.timestamp;
  if (v instanceof Duration) return T.duration;
  if (v instanceof Optional) return T.optional(T.dyn);
  return T.dyn;
}

/** The dotted name of an ident/select chain (`a.b.c`), or undefined. */
export function qualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const p = qualifiedName(e.operand);
    return p === undefined ? undefined : `${p}.${e.field}`;
  }
  return undefined;
}

export function check(expr: Expr, source: SourceInfo, env: CheckerEnv): { ast?: CheckedAst; issues: CheckIssue[] } {
  const c = new Checker(env, source);
  c.check(expr);
  if (c.issues.length) return { issues: c.issues.sort((a, b) => a.offset - b.offset) };
  for (const [id, t] of c.types) c.types.set(id, substitute(c.mapping, t, true));
  return { ast: { expr, source, types: c.types, refs: c.refs, type: c.types.get(expr.id) ?? T.dyn }, issues: [] };
}

class Checker {
  readonly types = new Map<number, Type>();
  readonly refs = new Map<number, Reference>();
  readonly issues: CheckIssue[] = [];
  readonly mapping = new Mapping();
  private nextVar = 0;
  private readonly scopes: Map<string, Type>[] = [];

  constructor(
    private readonly env: CheckerEnv,
    private readonly source: SourceInfo,
  ) {}

  private error(id: number, message: string): void {
    this.issues.push({ offset: this.source.offsetOf(id), message });
  }

  private set(e: Expr, t: Type): void {
    this.types.set(e.id, t);
  }

  private typeOf(e: Expr): Type {
    return this.types.get(e.id) ?? T.error;
  }

  private freshVar(): Type {
    return { kind: 'var', id: this.nextVar++ };
  }

  private lookupLocal(name: string): Type | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) return t;
    }
    return undefined;
  }

  /** Resolves an identifier: comprehension variables, then declared variables, then type names. */
  private lookupIdent(name: string): { type: Type; ref?: Reference } | undefined {
    if (name.startsWith('.')) name = name.slice(1);
    else {
      const local = this.lookupLocal(name);
      if (local) return { type: local };
    }
    const v = this.env.variables.get(name);
    if (v) return { type: v, ref: { kind: 'var', name } };
    const t = this.env.typeIdents.get(name);
    if (t) return { type: T.type(t), ref: { kind: 'type', name } };
    return undefined;
  }

  check(e: Expr): void {
    switch (e.kind) {
      case 'const':
        this.set(e, literalType(e.value));
        return;
      case 'ident': {
        const r = this.lookupIdent(e.name);
        if (!r) {
          this.error(e.id, `undeclared reference to '${e.name.replace(/^\./, '')}' (in container '')`);
          this.set(e, T.error);
          return;
        }
        if (r.ref) this.refs.set(e.id, r.ref);
        this.set(e, r.type);
        return;
      }
      case 'select':
        this.checkSelect(e);
        return;
      case 'call':
        this.checkCall(e);
        return;
      case 'list': {
        let elem: Type | undefined;
        const optional = new Set(e.optionalIndices);
        e.elements.forEach((el, i) => {
          this.check(el);
          let t = this.typeOf(el);
          if (optional.has(i)) {
            const s = substitute(this.mapping, t, false);
            if (s.kind === 'opaque' && s.name === 'optional_type') t = s.params[0];
            else if (!isDynOrError(s)) this.error(el.id, `expected type '${formatType(T.optional(s))}' but found '${formatType(s)}'`);
          }
          elem = this.join(el, elem, t);
        });
        this.set(e, T.list(elem ?? this.freshVar()));
        return;
      }
      case 'map': {
        let key: Type | undefined;
        let val: Type | undefined;
        for (const en of e.entries) {
          this.check(en.key);
          this.check(en.value);
          key = this.join(en.key, key, this.typeOf(en.key));
          let vt = this.typeOf(en.value);
          if (en.optional) {
            const s = substitute(this.mapping, vt, false);
            if (s.kind === 'opaque' && s.name === 'optional_type') vt = s.params[0];
            else if (!isDynOrError(s)) this.error(en.value.id, `expected type '${formatType(T.optional(s))}' but found '${formatType(s)}'`);
          }
          val = this.join(en.value, val, vt);
        }
        this.set(e, T.map(key ?? this.freshVar(), val ?? this.freshVar()));
        return;
      }
      case 'struct':
        this.checkStruct(e);
        return;
      case 'comprehension':
        this.checkComprehension(e);
        return;
    }
  }

  /** cel-go's checkCreateStruct: the type must be declared, each field declared and of an assignable type. */
  private checkStruct(e: StructExpr): void {
    const name = e.typeName.replace(/^\./, '');
    const st = this.env.resolveStruct?.(name);
    if (!st) {
      this.error(e.id, `undeclared reference to '${e.typeName}' (in container '')`);
      this.set(e, T.error);
      return;
    }
    this.refs.set(e.id, { kind: 'type', name });
    this.set(e, st.type);
    for (const f of e.fields) {
      this.check(f.value);
      let fieldType = st.field(f.name);
      if (!fieldType) {
        this.error(f.id, `undefined field '${f.name}'`);
        fieldType = T.error;
      }
      let valueType = this.typeOf(f.value);
      if (f.optional) {
        const s = substitute(this.mapping, valueType, false);
        if (s.kind === 'opaque' && s.name === 'optional_type') valueType = s.params[0];
        else if (!isDynOrError(s)) this.error(f.value.id, `expected type '${formatType(T.optional(fieldType))}' but found '${formatType(s)}'`);
      }
      if (!isAssignable(this.mapping, fieldType, valueType)) {
        const shown = (t: Type) => formatType(substitute(this.mapping, t, true));
        this.error(f.id, `expected type of field '${f.name}' is '${shown(fieldType)}' but provided type is '${shown(valueType)}'`);
      }
    }
  }

  private join(e: Expr, previous: Type | undefined, current: Type): Type {
    if (!previous) return current;
    if (isAssignable(this.mapping, previous, current)) return mostGeneral(previous, current);
    // mixed literals are list(dyn)/map(dyn, dyn); homogeneity is checked afterwards (see validateHomogeneousLiterals)
    void e;
    return T.dyn;
  }

  private checkSelect(e: SelectExpr): void {
    if (!e.testOnly) {
      const qn = qualifiedName(e);
      if (qn !== undefined && !this.lookupLocal(rootName(qn))) {
        const name = qn.startsWith('.') ? qn.slice(1) : qn;
        const v = this.env.variables.get(name);
        if (v) {
          this.refs.set(e.id, { kind: 'var', name });
          this.set(e, v);
          return;
        }
        const t = this.env.typeIdents.get(name);
        if (t) {
          this.refs.set(e.id, { kind: 'type', name });
          this.set(e, T.type(t));
          return;
        }
      }
    }
    let result = this.selectField(e, e.operand, e.field, false);
    if (e.testOnly) result = T.bool;
    this.set(e, substitute(this.mapping, result, false));
  }

  private selectField(e: Expr, operand: Expr, field: string, optional: boolean): Type {
    this.check(operand);
    const operandType = substitute(this.mapping, this.typeOf(operand), false);
    let target = operandType;
    let isOpt = false;
    if (target.kind === 'opaque' && target.name === 'optional_type') {
      target = target.params[0];
      isOpt = true;
    }
    let result: Type = T.error;
    switch (target.kind) {
      case 'map':
        result = target.value;
        break;
      case 'object': {
        const ft = target.decl.field(field);
        if (ft) result = ft;
        else this.error(e.id, `undefined field '${field}'`);
        break;
      }
      case 'var':
        isAssignable(this.mapping, T.dyn, target);
        result = T.dyn;
        break;
      default:
        if (!isDynOrError(target)) this.error(e.id, `type '${formatType(target)}' does not support field selection`);
        result = T.dyn;
    }
    return isOpt || optional ? T.optional(result) : result;
  }

  private checkCall(e: CallExpr): void {
    if (e.fn === '_?._') {
      const field = e.args[1];
      if (field.kind !== 'const' || typeof field.value !== 'string') {
        this.error(field.id, 'unsupported optional field selection');
        this.set(e, T.error);
        return;
      }
      this.set(e, substitute(this.mapping, this.selectField(e, e.args[0], field.value, true), false));
      this.refs.set(e.id, { kind: 'fn', name: '_?._', overloads: ['select_optional_field'], global: true });
      return;
    }
    for (const a of e.args) this.check(a);
    if (!e.target) {
      const fn = this.env.functions.get(e.fn);
      if (!fn) {
        this.error(e.id, `undeclared reference to '${e.fn}' (in container '')`);
        this.set(e, T.error);
        return;
      }
      this.resolve(e, fn, undefined, true);
      return;
    }
    const qn = qualifiedName(e.target);
    if (qn !== undefined && !this.lookupLocal(rootName(qn)) && !this.env.variables.has(rootName(qn))) {
      const fn = this.env.functions.get(`${qn.replace(/^\./, '')}.${e.fn}`);
      if (fn) {
        this.resolve(e, fn, undefined, true);
        return;
      }
    }
    this.check(e.target);
    const fn = this.env.functions.get(e.fn);
    if (fn) {
      this.resolve(e, fn, e.target, false);
      return;
    }
    this.set(e, T.error);
    this.error(e.id, `undeclared reference to '${e.fn}' (in container '')`);
  }

  private resolve(e: CallExpr, fn: FunctionDecl, target: Expr | undefined, global: boolean): void {
    const argExprs = target ? [target, ...e.args] : e.args;
    const argTypes = argExprs.map((a) => this.typeOf(a));
    let result: Type | undefined;
    const matched: string[] = [];
    for (const o of fn.overloads) {
      if (o.member !== !!target || o.params.length !== argTypes.length) continue;
      const names = new Set<string>();
      for (const p of o.params) collectParams(p, names);
      collectParams(o.result, names);
      const vars = new Map<string, Type>();
      for (const n of names) vars.set(n, this.freshVar());
      const params = o.params.map((p) => instantiate(p, vars));
      if (!isAssignableList(this.mapping, params, argTypes)) continue;
      matched.push(o.id);
      const rt = substitute(this.mapping, instantiate(o.result, vars), false);
      if (!result) result = rt;
      else if (result.kind !== 'dyn' && !typeEquals(rt, result)) result = T.dyn;
    }
    if (!result) {
      const shown = argTypes.map((t) => formatType(substitute(this.mapping, t, true)));
      const sig = target ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      this.error(e.id, `found no matching overload for '${fn.name}' applied to '${sig}'`);
      this.set(e, T.error);
      return;
    }
    this.refs.set(e.id, { kind: 'fn', name: fn.name, overloads: matched, global });
    this.set(e, result);
  }

  private checkComprehension(e: ComprehensionExpr): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mapping, this.typeOf(e.iterRange), false);
    const accuType = this.typeOf(e.accuInit);
    let v1: Type;
    let v2: Type | undefined;
    switch (rangeType.kind) {
      case 'list':
        v1 = e.iterVar2 !== undefined ? T.int : rangeType.elem;
        if (e.iterVar2 !== undefined) v2 = rangeType.elem;
        break;
      case 'map':
        v1 = rangeType.key;
        if (e.iterVar2 !== undefined) v2 = rangeType.value;
        break;
      case 'dyn':
      case 'error':
      case 'var':
        isAssignable(this.mapping, T.dyn, rangeType);
        v1 = T.dyn;
        if (e.iterVar2 !== undefined) v2 = T.dyn;
        break;
      default:
        this.error(e.iterRange.id, `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        v1 = T.error;
        if (e.iterVar2 !== undefined) v2 = T.error;
    }
    this.scopes.push(new Map([[e.accuVar, accuType]]));
    const loop = new Map<string, Type>([[e.iterVar, v1]]);
    if (e.iterVar2 !== undefined) loop.set(e.iterVar2, v2!);
    this.scopes.push(loop);
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, T.bool);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.scopes.pop();
    this.check(e.result);
    this.scopes.pop();
    this.set(e, substitute(this.mapping, this.typeOf(e.result), false));
  }

  private assertType(e: Expr, t: Type): void {
    const actual = this.typeOf(e);
    if (!isAssignable(this.mapping, t, actual)) {
      this.error(e.id, `expected type '${formatType(substitute(this.mapping, t, true))}' but found '${formatType(substitute(this.mapping, actual, true))}'`);
    }
  }
}

function rootName(qn: string): string {
  const s = qn.startsWith('.') ? qn.slice(1) : qn;
  const i = s.indexOf('.');
  return i < 0 ? s : s.slice(0, i);
}
