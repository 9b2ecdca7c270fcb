/**
 * CEL types for the checker, with cel-go's naming (`list(int)`, `map(string, int)`, `optional_type(int)`) and its
 * assignability rules (type parameters bound through a substitution mapping, dyn assignable both ways).
 */

export type PrimitiveName =
  | 'int'
  | 'uint'
  | 'double'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'null_type'
  | 'google.protobuf.Timestamp'
  | 'google.protobuf.Duration';

export interface ObjectDecl {
  readonly name: string;
  /** The CEL type of a declared field (escaped name), or undefined when the object has no such field. */
  field(name: string): Type | undefined;
}

export type Type =
  | { readonly kind: 'prim'; readonly name: PrimitiveName }
  | { readonly kind: 'dyn' }
  | { readonly kind: 'error' }
  | { readonly kind: 'list'; readonly elem: Type }
  | { readonly kind: 'map'; readonly key: Type; readonly value: Type }
  | { readonly kind: 'type'; readonly param?: Type }
  | { readonly kind: 'opaque'; readonly name: string; readonly params: Type[] }
  | { readonly kind: 'object'; readonly name: string; readonly decl: ObjectDecl }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'var'; readonly id: number };

const prim = (name: PrimitiveName): Type => ({ kind: 'prim', name });

export const T = {
  int: prim('int'),
  uint: prim('uint'),
  double: prim('double'),
  bool: prim('bool'),
  string: prim('string'),
  bytes: prim('bytes'),
  null: prim('null_type'),
  timestamp: prim('google.protobuf.Timestamp'),
  duration: prim('google.protobuf.Duration'),
  dyn: { kind: 'dyn' } as Type,
  error: { kind: 'error' } as Type,
  list: (elem: Type): Type => ({ kind: 'list', elem }),
  map: (key: Type, value: Type): Type => ({ kind: 'map', key, value }),
  type: (param?: Type): Type => (param ? { kind: 'type', param } : { kind: 'type' }),
  optional: (param: Type): Type => ({ kind: 'opaque', name: 'optional_type', params: [param] }),
  opaque: (name: string, ...params: Type[]): Type => ({ kind: 'opaque', name, params }),
  param: (name: string): Type => ({ kind: 'param', name }),
} as const;

/** cel-go's FormatCELType (checker messages): `null`, `timestamp` and `duration` in their short forms. */
/** A declared object type with fixed fields (Kubernetes' DeclType objects: misspelt fields are compile errors). */
export function objectType(name: string, fields: Record<string, Type>): Type {
  const byName = new Map(Object.entries(fields));
  return { kind: 'object', name, decl: { name, field: (f) => byName.get(f) } };
}

/** kubernetes.UserInfo: who made a request, as admission and authentication expressions see it. */
export const USER_INFO_TYPE = objectType('kubernetes.UserInfo', {
  username: T.string,
  uid: T.string,
  groups: T.list(T.string),
  extra: T.map(T.string, T.list(T.string)),
});

export function formatType(t: Type): string {
  switch (t.kind) {
    case 'prim':
      return t.name === 'null_type' ? 'null' : t.name === 'google.protobuf.Timestamp' ? 'timestamp' : t.name === 'google.protobuf.Duration' ? 'duration' : t.name;
    case 'dyn':
      return 'dyn';
    case 'error':
      return '!error!';
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'type':
      return t.param ? `type(${formatType(t.param)})` : 'type';
    case 'opaque':
      return t.params.length ? `${t.name}(${t.params.map(formatType).join(', ')})` : t.name;
    case 'object':
      return t.name;
    case 'param':
      return t.name;
    case 'var':
      return `_var${t.id}`;
  }
}

export function isDynOrError(t: Type): boolean {
  return t.kind === 'dyn' || t.kind === 'error';
}

export function typeParams(t: Type): Type[] {
  switch (t.kind) {
    case 'list':
      return [t.elem];
    case 'map':
      return [t.key, t.value];
    case 'opaque':
      return t.params;
    case 'type':
      return t.param ? [t.param] : [];
    default:
      return [];
  }
}

function withParams(t: Type, params: Type[]): Type {
  switch (t.kind) {
    case 'list':
      return { kind: 'list', elem: params[0] };
    case 'map':
      return { kind: 'map', key: params[0], value: params[1] };
    case 'opaque':
      return { kind: 'opaque', name: t.name, params };
    case 'type':
      return params.length ? { kind: 'type', param: params[0] } : t;
    default:
      return t;
  }
}

/** Exact structural type equality (type variables by id). */
export function typeEquals(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'prim':
      return a.name === (b as typeof a).name;
    case 'object':
      return a.name === (b as typeof a).name;
    case 'param':
      return a.name === (b as typeof a).name;
    case 'var':
      return a.id === (b as typeof a).id;
    case 'opaque':
      if (a.name !== (b as typeof a).name) return false;
      break;
    default:
      break;
  }
  const pa = typeParams(a);
  const pb = typeParams(b);
  return pa.length === pb.length && pa.every((p, i) => typeEquals(p, pb[i]));
}

/** Type-variable substitutions, as cel-go's checker mapping. */
export class Mapping {
  private readonly subs = new Map<number, Type>();

  find(v: Type): Type | undefined {
    return v.kind === 'var' ? this.subs.get(v.id) : undefined;
  }

  add(v: Type, t: Type): void {
    if (v.kind === 'var') this.subs.set(v.id, t);
  }

  copy(): Mapping {
    const m = new Mapping();
    for (const [k, v] of this.subs) m.subs.set(k, v);
    return m;
  }

  commit(from: Mapping): void {
    this.subs.clear();
    for (const [k, v] of from.subs) this.subs.set(k, v);
  }
}

/** Replaces bound type variables (and, when `typeParamToDyn`, unbound ones by dyn). */
export function substitute(m: Mapping, t: Type, typeParamToDyn: boolean): Type {
  if (t.kind === 'var') {
    const s = m.find(t);
    if (s) return substitute(m, s, typeParamToDyn);
    return typeParamToDyn ? T.dyn : t;
  }
  const ps = typeParams(t);
  if (!ps.length) return t;
  return withParams(
    t,
    ps.map((p) => substitute(m, p, typeParamToDyn)),
  );
}

function occursIn(m: Mapping, v: Type, t: Type): boolean {
  if (v.kind !== 'var') return false;
  if (t.kind === 'var') {
    if (t.id === v.id) return true;
    const s = m.find(t);
    return s ? occursIn(m, v, s) : false;
  }
  return typeParams(t).some((p) => occursIn(m, v, p));
}

function isEqualOrLessSpecific(a: Type, b: Type): boolean {
  if (a.kind === 'dyn' || a.kind === 'var' || a.kind === 'param') return true;
  if (b.kind === 'dyn' || b.kind === 'var' || b.kind === 'param') return false;
  if (a.kind !== b.kind) return false;
  const pa = typeParams(a);
  const pb = typeParams(b);
  if (pa.length !== pb.length) return typeEquals(a, b);
  if (!pa.length) return typeEquals(a, b);
  return pa.every((p, i) => isEqualOrLessSpecific(p, pb[i]));
}

export function mostGeneral(a: Type, b: Type): Type {
  return isEqualOrLessSpecific(a, b) ? a : b;
}

function isValidSubstitution(m: Mapping, t1: Type, t2: Type): { valid: boolean; hasSub: boolean } {
  if (typeEquals(t1, t2)) return { valid: true, hasSub: true };
  const sub = m.find(t2);
  if (sub) {
    if (typeEquals(t1, sub)) return { valid: true, hasSub: true };
    if (isAssignableInternal(m, t1, sub)) {
      const g = mostGeneral(t1, sub);
      if (!occursIn(m, t2, g)) m.add(t2, g);
      return { valid: true, hasSub: true };
    }
    return { valid: false, hasSub: true };
  }
  if (!occursIn(m, t2, t1)) {
    m.add(t2, t1);
    return { valid: true, hasSub: false };
  }
  return { valid: false, hasSub: false };
}

function isAssignableInternal(m: Mapping, t1: Type, t2: Type): boolean {
  if (t2.kind === 'var') {
    const { valid, hasSub } = isValidSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'var') return isValidSubstitution(m, t2, t1).valid;
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'prim' && t1.name === 'null_type') return t2.kind === 'prim' && t2.name === 'null_type';
  if (t2.kind === 'prim' && t2.name === 'null_type') return false;
  switch (t1.kind) {
    case 'prim':
      return t2.kind === 'prim' && t1.name === t2.name;
    case 'object':
      return t2.kind === 'object' && t1.name === t2.name;
    case 'type':
      return t2.kind === 'type';
    case 'opaque':
      if (t2.kind !== 'opaque' || t1.name !== t2.name || t1.params.length !== t2.params.length) return false;
      return t1.params.every((p, i) => isAssignableInternal(m, p, t2.params[i]));
    case 'list':
      return t2.kind === 'list' && isAssignableInternal(m, t1.elem, t2.elem);
    case 'map':
      return t2.kind === 'map' && isAssignableInternal(m, t1.key, t2.key) && isAssignableInternal(m, t1.value, t2.value);
    default:
      return false;
  }
}

/** Whether `actual` may be used where `expected` is required; commits type-variable bindings only on success. */
export function isAssignable(m: Mapping, expected: Type, actual: Type): boolean {
  const trial = m.copy();
  if (!isAssignableInternal(trial, expected, actual)) return false;
  m.commit(trial);
  return true;
}

export function isAssignableList(m: Mapping, expected: Type[], actual: Type[]): boolean {
  const trial = m.copy();
  if (expected.length !== actual.length) return false;
  for (let i = 0; i < expected.length; i++) if (!isAssignableInternal(trial, expected[i], actual[i])) return false;
  m.commit(trial);
  return true;
}

/** Replaces declared type parameters (`A`, `K`, ...) by the given type variables. */
export function instantiate(t: Type, vars: Map<string, Type>): Type {
  if (t.kind === 'param') return vars.get(t.name) ?? t;
  const ps = typeParams(t);
  if (!ps.length) return t;
  return withParams(
    t,
    ps.map((p) => instantiate(p, vars)),
  );
}

/** The declared type parameters used in a type. */
export function collectParams(t: Type, into: Set<string>): void {
  if (t.kind === 'param') into.add(t.name);
  for (const p of typeParams(t)) collectParams(p, into);
}
