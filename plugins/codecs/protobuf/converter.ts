/*
 * One converter between protobuf messages and the JSON kube's encoding/json gives the same Go object, driven by
 * protobufjs reflection plus what only the Go structs say (go-fields.ts) and the types with their own JSON form
 * (special-types.ts).
 *
 * Message -> JSON (decoding a body) follows encoding/json: a non-pointer field with `omitempty` is left out when zero;
 * a field without it is always written (null for an empty slice or a nil pointer); a pointer is written whenever it
 * was on the wire; a non-pointer struct is always written. JSON -> message (encoding a response) follows Go's
 * marshaller: non-pointer fields are always written, pointers only when the JSON has them, map entries by sorted key.
 */
import protobuf from 'protobufjs';
import { maxBodyDepth } from '../../../core/contracts/body-decoding.js';
import { goFields } from './go-fields.js';
import { ConvertError, describe, has, int64, setOwn, sortedKeys, type JsonObject, type Msg } from './json-shape.js';
import { specialTypes, type NestedConversion, type SpecialType } from './special-types.js';
import { kubeType } from './schema.js';

type ValuePlan =
  | { readonly kind: 'message'; readonly type: protobuf.Type }
  | { readonly kind: 'special'; readonly special: SpecialType }
  | { readonly kind: 'scalar'; readonly scalar: string };

interface FieldPlan {
  /** The protobuf field name (the key in protobufjs message objects). */
  readonly name: string;
  /** The JSON key. */
  readonly json: string;
  readonly pointer: boolean;
  readonly required: boolean;
  /** A `json:",inline"` struct: its fields are this object's. */
  readonly inline: boolean;
  readonly shape: 'single' | 'repeated' | 'map';
  /** One value: the field's, an element's, or a map entry's value. */
  readonly value: ValuePlan;
}

const plans = new Map<protobuf.Type, FieldPlan[]>();

/** A message type's fields in declaration order (the Go struct's, hence JSON's), with what Go says about each. */
function planOf(type: protobuf.Type): FieldPlan[] {
  let plan = plans.get(type);
  if (plan) return plan;
  const facts = goFields[type.fullName.slice(1)] ?? {};
  plan = type.fieldsArray.map((field) => {
    field.resolve();
    const resolved = field.resolvedType;
    let value: ValuePlan;
    if (resolved instanceof protobuf.Type) {
      const special = specialTypes.get(resolved.fullName.slice(1));
      value = special ? { kind: 'special', special } : { kind: 'message', type: resolved };
    } else if (resolved instanceof protobuf.Enum) {
      throw new Error(`${type.fullName}.${field.name}: enums are not used by Kubernetes messages`);
    } else {
      value = { kind: 'scalar', scalar: field.type };
    }
    return {
      name: field.name,
      json: facts.jsonNames?.[field.name] ?? field.name,
      pointer: facts.pointers?.includes(field.name) ?? false,
      required: facts.required?.includes(field.name) ?? false,
      inline: facts.inline?.includes(field.name) ?? false,
      shape: field instanceof protobuf.MapField ? 'map' : field.repeated ? 'repeated' : 'single',
      value,
    };
  });
  plans.set(type, plan);
  return plan;
}

// ---- message -> JSON ----------------------------------------------------------------------------------------------

const int64Types = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function scalarToJSON(scalar: string, v: unknown): unknown {
  if (int64Types.has(scalar)) return int64(v);
  // encoding/json refuses NaN and the infinities.
  if ((scalar === 'double' || scalar === 'float') && !Number.isFinite(v)) throw new ConvertError(`json: unsupported value: ${String(v)}`);
  if (scalar === 'bytes') return Buffer.from(v as Uint8Array).toString('base64');
  return v;
}

function scalarZero(scalar: string): unknown {
  return scalar === 'string' ? '' : scalar === 'bool' ? false : scalar === 'bytes' ? '' : 0;
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function nestedFor(depth: number): NestedConversion {
  return {
    depth,
    toJSON: (typeName, m) => messageToJSON(kubeType(typeName), m, depth + 1),
    fromJSON: (typeName, v) => messageFromJSON(kubeType(typeName), v, depth + 1),
  };
}

/** One value (of a single field, a list element or a map value; `m` undefined when absent) as JSON. */
function valueToJSON(value: ValuePlan, m: unknown, present: boolean, depth: number): unknown {
  switch (value.kind) {
    case 'message':
      return messageToJSON(value.type, present ? (m as Msg) : undefined, depth + 1);
    case 'special':
      return value.special.toJSON(present ? (m as Msg) : undefined, nestedFor(depth));
    case 'scalar':
      return present ? scalarToJSON(value.scalar, m) : scalarZero(value.scalar);
  }
}

function fieldToJSON(f: FieldPlan, m: Msg | undefined, depth: number): unknown {
  const present = has(m, f.name);
  const v = present ? m![f.name] : undefined;
  const absent = f.required ? null : undefined;
  if (f.shape === 'repeated') {
    const items = present ? (v as unknown[]) : [];
    return items.length ? items.map((item) => valueToJSON(f.value, item, true, depth)) : absent;
  }
  if (f.shape === 'map') {
    const entries = (present ? v : {}) as Record<string, unknown>;
    const keys = sortedKeys(entries);
    if (!keys.length) return absent;
    const out: JsonObject = {};
    for (const k of keys) setOwn(out, k, valueToJSON(f.value, entries[k], true, depth));
    return out;
  }
  if (f.pointer) return present ? valueToJSON(f.value, v, true, depth) : absent;
  const json = valueToJSON(f.value, v, present, depth);
  return f.value.kind === 'scalar' && !f.required && isZero(json) ? undefined : json;
}

function writeFieldsJSON(type: protobuf.Type, m: Msg | undefined, out: JsonObject, depth: number): void {
  for (const f of planOf(type)) {
    if (f.inline && f.value.kind === 'message') {
      writeFieldsJSON(f.value.type, has(m, f.name) ? (m![f.name] as Msg) : undefined, out, depth + 1);
      continue;
    }
    const json = fieldToJSON(f, m, depth);
    if (json !== undefined) setOwn(out, f.json, json);
  }
}

/** A decoded message (undefined: absent, i.e. Go's zero value) as the JSON encoding/json writes for it. */
export function messageToJSON(type: protobuf.Type, m: Msg | undefined, depth = 0): JsonObject {
  const out: JsonObject = {};
  writeFieldsJSON(type, m, out, depth);
  return out;
}

// ---- JSON -> message ----------------------------------------------------------------------------------------------

/** A ConvertError learns the JSON path on its way out. */
function atPath(err: unknown, segment: string): unknown {
  return err instanceof ConvertError ? err.under(segment) : err;
}

const int32Range: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  sint32: [-(2 ** 31), 2 ** 31 - 1],
  sfixed32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  fixed32: [0, 2 ** 32 - 1],
};
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function scalarFromJSON(scalar: string, v: unknown): unknown {
  const wrongType = () => new ConvertError(`must be ${scalar === 'bool' ? 'a boolean' : scalar === 'string' ? 'a string' : scalar === 'bytes' ? 'base64 text' : `an ${scalar}`}, not ${describe(v)}`);
  switch (scalar) {
    case 'string':
      if (typeof v !== 'string') throw wrongType();
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw wrongType();
      return v;
    case 'double':
    case 'float':
      if (typeof v !== 'number') throw wrongType();
      return v;
    case 'bytes':
      if (typeof v !== 'string') throw wrongType();
      if (!base64Pattern.test(v)) throw new ConvertError('illegal base64 data');
      return Buffer.from(v, 'base64');
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) throw wrongType();
  const range = int32Range[scalar];
  if (range && (v < range[0] || v > range[1])) throw new ConvertError(`${v} overflows ${scalar}`);
  return v;
}

function valueFromJSON(value: ValuePlan, v: unknown, depth: number): unknown {
  switch (value.kind) {
    case 'message':
      return messageFromJSON(value.type, v, depth + 1);
    case 'special':
      return value.special.fromJSON(v ?? null, nestedFor(depth));
    case 'scalar':
      return v === null || v === undefined ? scalarZero(value.scalar) : scalarFromJSON(value.scalar, v);
  }
}

function fieldFromJSON(f: FieldPlan, v: unknown, m: Msg, depth: number): void {
  if (f.shape === 'repeated') {
    if (v === null || v === undefined) return;
    if (!Array.isArray(v)) throw new ConvertError(`must be an array, not ${describe(v)}`);
    m[f.name] = v.map((item, i) => {
      try {
        return valueFromJSON(f.value, item, depth);
      } catch (err) {
        throw atPath(err, `[${i}]`);
      }
    });
    return;
  }
  if (f.shape === 'map') {
    if (v === null || v === undefined) return;
    if (typeof v !== 'object' || Array.isArray(v)) throw new ConvertError(`must be an object, not ${describe(v)}`);
    const entries: Record<string, unknown> = {};
    for (const k of sortedKeys(v)) {
      try {
        setOwn(entries, k, valueFromJSON(f.value, (v as JsonObject)[k], depth));
      } catch (err) {
        throw atPath(err, `[${JSON.stringify(k)}]`);
      }
    }
    m[f.name] = entries;
    return;
  }
  if (v === null || v === undefined) {
    if (f.pointer) return;
    // Go writes non-pointer fields whatever their value; bytes only when non-nil.
    if (f.value.kind === 'scalar' && f.value.scalar === 'bytes') return;
  }
  const value = valueFromJSON(f.value, v, depth);
  if (value !== undefined) m[f.name] = value;
}

/** A JSON object (null or undefined: Go's zero value) as the message Go's marshaller writes for it. */
export function messageFromJSON(type: protobuf.Type, json: unknown, depth = 0): Msg {
  if (depth > maxBodyDepth) throw new ConvertError(`nesting exceeds the maximum depth of ${maxBodyDepth}`);
  if (json !== null && json !== undefined && (typeof json !== 'object' || Array.isArray(json))) {
    throw new ConvertError(`must be an object, not ${describe(json)}`);
  }
  const obj = (json ?? {}) as JsonObject;
  const m: Msg = {};
  for (const f of planOf(type)) {
    if (f.inline && f.value.kind === 'message') {
      m[f.name] = messageFromJSON(f.value.type, obj, depth + 1);
      continue;
    }
    try {
      fieldFromJSON(f, has(obj, f.json) ? obj[f.json] : undefined, m, depth);
    } catch (err) {
      throw atPath(err, `.${f.json}`);
    }
  }
  return m;
}
