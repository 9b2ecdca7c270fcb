/**
 * Kubernetes' `Object` message types (k8s.io/apiserver/pkg/cel/mutation): `Object{...}`, `Object.spec{...}`,
 * `Object.spec.template{...}`, named by the field path from the root object. Without a schema every field name is
 * accepted and typed dyn (mutation.DynamicTypeResolver); a constructed value is an {@link ObjectVal}, whose nested
 * type names are checked against their field paths when the value is used (CheckTypeNamesMatchFieldPathNames).
 */
import type { StructType } from './struct-types.js';
import { T, type Type } from './types.js';
import { CelMap, celEquals, type ObjectValue, type Value } from './values.js';

export const OBJECT_TYPE_NAME = 'Object';

/** The value of an `Object…{}` construction: its set fields, in source order. */
export class ObjectVal implements ObjectValue {
  readonly isCelObject = true;
  constructor(
    readonly typeName: string,
    readonly fields: ReadonlyMap<string, Value>,
  ) {}
  field(name: string): Value | undefined {
    return this.fields.get(name);
  }
  fieldNames(): string[] {
    return [...this.fields.keys()];
  }
  size(): number {
    return this.fields.size;
  }
  equals(other: ObjectValue): boolean {
    if (!(other instanceof ObjectVal) || other.fields.size !== this.fields.size) return false;
    for (const [k, v] of this.fields) {
      const o = other.fields.get(k);
      if (o === undefined || !celEquals(v, o)) return false;
    }
    return true;
  }
}

/** An `Object…` type whose fields are all dyn. */
export function dynamicObjectType(name: string): StructType {
  const type: Type = { kind: 'object', name, decl: { name, field: () => T.dyn } };
  return { type, field: () => T.dyn, construct: (fields) => new ObjectVal(name, fields) };
}

/** Whether a message type name is one of the `Object…` names. */
export function isObjectTypeName(name: string): boolean {
  return name === OBJECT_TYPE_NAME || name.startsWith(OBJECT_TYPE_NAME + '.');
}

/**
 * kube's CheckTypeNamesMatchFieldPathNames: every ObjectVal nested under field `f` of a value typed `N` must be typed
 * `N.f` (lists and maps in between add nothing). Returns one message per mismatch.
 */
export function typeNameMismatches(v: ObjectVal): string[] {
  const out: string[] = [];
  const walk = (x: Value, path: string): void => {
    if (x instanceof ObjectVal) {
      if (x.typeName !== path) out.push(`unexpected type name "${x.typeName}", expected "${path}", which matches field name path from root Object type`);
      for (const [k, f] of x.fields) walk(f, `${path}.${k}`);
    } else if (Array.isArray(x)) {
      for (const e of x) walk(e, path);
    } else if (x instanceof CelMap) {
      for (const k of x.keys()) walk(x.get(k) as Value, path);
    }
  };
  walk(v, v.typeName);
  return out;
}
