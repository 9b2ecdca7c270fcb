/**
 * Kubernetes' JSON Patch CEL support (k8s.io/apiserver/pkg/cel/mutation/jsonpatch.go and cel/library/jsonpatch.go):
 * the `JSONPatch` message type (`op`, `path`, `from` strings, `value` of any type) and
 * `jsonpatch.escapeKey(string)`, which escapes `~` and `/` for use as a JSON Pointer token.
 */
import { global, type FunctionRegistry } from './functions.js';
import { STRING_TRAVERSAL_COST_FACTOR, factorRange, traversalCost } from './stdlib.js';
import type { StructType } from './struct-types.js';
import { T, type Type } from './types.js';
import { CelError, CelMap, Duration, Timestamp, UInt, actualSize, celEquals, type ObjectValue, type Val, type Value } from './values.js';

export const JSON_PATCH_TYPE_NAME = 'JSONPatch';

const FIELD_TYPES = new Map<string, Type>([
  ['op', T.string],
  ['path', T.string],
  ['from', T.string],
  ['value', T.dyn],
]);

/** One JSON Patch operation; `value` is undefined when the expression did not set it. */
export class JsonPatchVal implements ObjectValue {
  readonly isCelObject = true;
  readonly typeName = JSON_PATCH_TYPE_NAME;
  constructor(
    readonly op: string,
    readonly path: string,
    readonly from: string,
    readonly value: Value | undefined,
  ) {}
  field(name: string): Value | undefined {
    switch (name) {
      case 'op':
        return this.op;
      case 'path':
        return this.path;
      case 'from':
        return this.from;
      case 'value':
        return this.value;
      default:
        return undefined;
    }
  }
  fieldNames(): string[] {
    return ['op', 'path', 'from', ...(this.value === undefined ? [] : ['value'])];
  }
  size(): number {
    return this.fieldNames().length;
  }
  equals(other: ObjectValue): boolean {
    if (!(other instanceof JsonPatchVal) || other.op !== this.op || other.path !== this.path || other.from !== this.from) return false;
    if (this.value === undefined || other.value === undefined) return this.value === other.value;
    return celEquals(this.value, other.value);
  }
}

const jsonPatchCelType: Type = { kind: 'object', name: JSON_PATCH_TYPE_NAME, decl: { name: JSON_PATCH_TYPE_NAME, field: (f) => FIELD_TYPES.get(f) } };

/** The `JSONPatch` message type. */
export const JSON_PATCH_TYPE: StructType = {
  type: jsonPatchCelType,
  field: (name) => FIELD_TYPES.get(name),
  construct(fields): Val {
    const str = (name: string): string | CelError => {
      const v = fields.get(name);
      if (v === undefined) return '';
      return typeof v === 'string' ? v : new CelError(`unexpected type ${goTypeName(v)} for JSONPatchType '${name}' field`);
    };
    const op = str('op');
    if (op instanceof CelError) return op;
    const path = str('path');
    if (path instanceof CelError) return path;
    const from = str('from');
    if (from instanceof CelError) return from;
    return new JsonPatchVal(op, path, from, fields.get('value'));
  },
};

/** The Go type (%T) of a CEL value's native form, as the constructor's error texts print it. */
function goTypeName(v: Value): string {
  switch (typeof v) {
    case 'bigint':
      return 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      break;
  }
  if (v === null) return 'structpb.NullValue';
  if (v instanceof UInt) return 'uint64';
  if (v instanceof Uint8Array) return '[]uint8';
  if (v instanceof Timestamp) return 'time.Time';
  if (v instanceof Duration) return 'time.Duration';
  if (Array.isArray(v)) return '[]ref.Val';
  if (v instanceof CelMap) return 'map[ref.Val]ref.Val';
  return 'map[string]interface {}';
}

/** RFC 6901 escaping of one reference token (kube's jsonPatchReplacer). */
export function escapeJsonPointerKey(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function registerKubernetesJsonPatch(r: FunctionRegistry): void {
  r.add(
    'jsonpatch.escapeKey',
    global('string_jsonpatch_escapeKey_string', [T.string], T.string, (a) => escapeJsonPointerKey(a[0] as string), {
      cost: (a) => traversalCost(actualSize(a[0])),
      estimate: (a) => ({ cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: a[0].size.min, max: a[0].size.max * 2 } }),
    }),
  );
}
