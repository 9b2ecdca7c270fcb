/**
 * Function declarations: each function has overloads with a cel-go style overload id, parameter types (the receiver
 * first for member overloads), a result type, the implementation, and the overload's runtime cost (cel-go's
 * CostTracker.costCall / Kubernetes' CostEstimator.CallCost; 1 when not given).
 */
import type { Type } from './types.js';
import { CelError, CelMap, Duration, OpaqueValue, Optional, Timestamp, TypeValue, UInt, isObjectValue, type Val, type Value } from './values.js';

/** Per-evaluation state: the running cost and its limit. */
export interface EvalState {
  cost: number;
  limit: number;
}

export interface CallCostArgs {
  args: Value[];
  result: Val;
}

/** A static size or cost range, as cel-go's checker estimates. */
export interface Range {
  min: number;
  max: number;
}

/** What a static cost estimator knows about one argument of a call. */
export interface EstimateArg {
  type: Type;
  /** Size range of the argument (string/bytes length, list/map size). */
  size: Range;
  /** When the argument is a literal. */
  constant?: Value;
  /** Size range of elements when the argument is a list or map value. */
  elemSize?: Range;
}

export interface CallEstimate {
  cost: Range;
  resultSize?: Range;
}

export interface Overload {
  id: string;
  member: boolean;
  /** Parameter types, the receiver first for member overloads. */
  params: Type[];
  result: Type;
  impl: (args: Value[], st: EvalState) => Val;
  /** Runtime cost of the call (defaults to 1). */
  cost?: (args: Value[], result: Val) => number;
  /** Static cost of the call, argument costs excluded (defaults to 1). */
  estimate?: (args: EstimateArg[]) => CallEstimate;
  /**
   * Plan-time specialisation for calls with some constant arguments (`undefined` for a non-constant one): an
   * implementation and runtime cost equivalent to `impl` and `cost` for those constants, or undefined when none applies.
   */
  specialize?: (consts: (Value | undefined)[]) => Pick<Overload, 'impl' | 'cost'> | undefined;
}

export interface FunctionDecl {
  name: string;
  overloads: Overload[];
}

export class FunctionRegistry {
  readonly fns = new Map<string, FunctionDecl>();
  private readonly byId = new Map<string, Overload>();

  add(name: string, ...overloads: Overload[]): void {
    let decl = this.fns.get(name);
    if (!decl) {
      decl = { name, overloads: [] };
      this.fns.set(name, decl);
    }
    for (const o of overloads) {
      if (this.byId.has(o.id)) throw new Error(`duplicate overload id ${o.id}`);
      decl.overloads.push(o);
      this.byId.set(o.id, o);
    }
  }

  get(name: string): FunctionDecl | undefined {
    return this.fns.get(name);
  }

  overload(id: string): Overload | undefined {
    return this.byId.get(id);
  }

  clone(): FunctionRegistry {
    const r = new FunctionRegistry();
    for (const [name, decl] of this.fns) r.add(name, ...decl.overloads);
    return r;
  }
}

/** A global overload. */
export function global(id: string, params: Type[], result: Type, impl: Overload['impl'], extra: Partial<Overload> = {}): Overload {
  return { id, member: false, params, result, impl, ...extra };
}

/** A member (receiver-style) overload; `params[0]` is the receiver. */
export function member(id: string, params: Type[], result: Type, impl: Overload['impl'], extra: Partial<Overload> = {}): Overload {
  return { id, member: true, params, result, impl, ...extra };
}

/** Whether a runtime value may be passed for a parameter of this type (the kind only, as cel-go dispatches). */
export function matchesRuntimeType(t: Type, v: Val): boolean {
  switch (t.kind) {
    case 'dyn':
    case 'param':
    case 'var':
    case 'error':
      return true;
    case 'prim':
      switch (t.name) {
        case 'int':
          return typeof v === 'bigint';
        case 'uint':
          return v instanceof UInt;
        case 'double':
          return typeof v === 'number';
        case 'bool':
          return typeof v === 'boolean';
        case 'string':
          return typeof v === 'string';
        case 'bytes':
          return v instanceof Uint8Array;
        case 'null_type':
          return v === null;
        case 'google.protobuf.Timestamp':
          return v instanceof Timestamp;
        case 'google.protobuf.Duration':
          return v instanceof Duration;
      }
      return false;
    // like cel-go's IsAssignableRuntimeType, a list or map is judged by its first element or entry
    case 'list':
      return Array.isArray(v) && (v.length === 0 || matchesRuntimeType(t.elem, v[0]));
    case 'map': {
      if (!(v instanceof CelMap)) return false;
      const k = v.keys()[0];
      return k === undefined || (matchesRuntimeType(t.key, k) && matchesRuntimeType(t.value, v.get(k) as Val));
    }
    case 'type':
      return v instanceof TypeValue;
    case 'opaque':
      if (t.name === 'optional_type') return v instanceof Optional;
      return v instanceof OpaqueValue && v.typeName === t.name;
    case 'object':
      return isObjectValue(v) && v.typeName === t.name;
  }
}

export function noSuchOverload(): CelError {
  return new CelError('no such overload');
}
