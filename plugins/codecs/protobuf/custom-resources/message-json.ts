/*
 * Custom resource JSON <-> protobuf message, driven by the message description `kapi gen proto` renders (so the
 * server reads and writes exactly what the .proto describes). Rules, both ways:
 *  - every field is proto2 `optional`: a value that was set, zero or not, is on the wire; an absent or null one is not
 *    (except in bytes-as-JSON fields, where JSON null is kept as the text `null`);
 *  - an empty list or map and an absent one are the same on the wire, and read back as absent;
 *  - JSON properties the schema does not declare are left out (kube prunes them too);
 *  - object keys come out sorted, as kube's encoding of an unstructured object writes them.
 */
import type { ProtoField, ProtoFile, ProtoMessage, Shape } from '../../../../lib/proto/proto-model.js';
import { ConvertError, describe, has, int64, parseRawJSON, setOwn, sortedKeys, type JsonObject, type Msg } from '../json-shape.js';
import { listMetaFromJSON, listMetaToJSON, objectMetaFromJSON, objectMetaToJSON } from '../object-meta.js';

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const int64Limit = 2 ** 63;

/** Converts the messages of one .proto file. */
export class MessageJson {
  private readonly messages: Map<string, ProtoMessage>;
  /** Each message's fields in JSON name order, the order they are written to JSON in. */
  private readonly jsonOrder = new Map<string, ProtoField[]>();

  constructor(file: ProtoFile) {
    this.messages = new Map(file.messages.map((m) => [m.name, m]));
    for (const m of file.messages) {
      const byName = new Map(m.fields.map((f) => [f.jsonName, f]));
      this.jsonOrder.set(m.name, sortedKeys(Object.fromEntries(byName)).map((k) => byName.get(k)!));
    }
  }

  /** A decoded message -> the JSON object it carries. Throws ConvertError for values JSON cannot hold. */
  toJSON(messageName: string, m: Msg, path = '', depth = 1): JsonObject {
    const out: JsonObject = {};
    for (const field of this.jsonOrder.get(messageName) ?? this.missing(messageName)) {
      const value = this.fieldToJSON(field, m, `${path}.${field.jsonName}`, depth + 1);
      if (value !== undefined) setOwn(out, field.jsonName, value);
    }
    return out;
  }

  /** A JSON object -> a plain message object for `Type.encode`. Throws ConvertError when a value does not fit. */
  fromJSON(messageName: string, j: JsonObject, path = ''): Msg {
    const m: Msg = {};
    for (const field of (this.messages.get(messageName) ?? this.missing(messageName)).fields) {
      const v = has(j, field.jsonName) ? j[field.jsonName] : undefined;
      const value = this.fieldFromJSON(field.shape, v, `${path}.${field.jsonName}`);
      if (value !== undefined) m[field.name] = value;
    }
    return m;
  }

  private missing(name: string): never {
    throw new Error(`no message ${name} in the file`);
  }

  private fieldToJSON(field: ProtoField, m: Msg, path: string, depth: number): unknown {
    const shape = field.shape;
    const v = has(m, field.name) ? m[field.name] : undefined;
    switch (shape.kind) {
      case 'objectMeta':
        return objectMetaToJSON(message(v));
      case 'listMeta':
        return listMetaToJSON(message(v));
      case 'list':
        return Array.isArray(v) && v.length ? this.listToJSON(shape.item, v, path, depth) : undefined;
      case 'map':
        return v != null && Object.keys(v).length ? this.mapToJSON(shape.value, v as Record<string, unknown>, path, depth) : undefined;
      default:
        return v != null ? this.valueToJSON(shape, v, path, depth) : undefined;
    }
  }

  private listToJSON(item: Shape, items: unknown[], path: string, depth: number): unknown[] {
    return items.map((x, i) => this.valueToJSON(item, x, `${path}[${i}]`, depth + 1));
  }

  private mapToJSON(value: Shape, entries: Record<string, unknown>, path: string, depth: number): JsonObject {
    const out: JsonObject = {};
    for (const k of sortedKeys(entries)) setOwn(out, k, this.valueToJSON(value, entries[k], `${path}[${JSON.stringify(k)}]`, depth + 1));
    return out;
  }

  /** One singular value (a field's, a list item's or a map value's). */
  private valueToJSON(shape: Shape, v: unknown, path: string, depth: number): unknown {
    switch (shape.kind) {
      case 'string':
        return typeof v === 'string' ? v : '';
      case 'int64':
        return int64(v);
      case 'bool':
        return v === true;
      case 'double': {
        const n = typeof v === 'number' ? v : 0;
        if (!Number.isFinite(n)) throw new ConvertError(`${n} cannot be represented in JSON`, path);
        return n;
      }
      case 'json':
        return parseRawJSON(v instanceof Uint8Array ? v : new Uint8Array(0), depth, path.replace(/^\./, ''));
      case 'intOrString':
        return intOrStringToJSON(message(v) ?? {}, path);
      case 'message':
        return this.toJSON(shape.message, message(v) ?? {}, path, depth);
      case 'wrapper': {
        const items = (message(v) ?? {}).items;
        if (shape.inner.kind === 'list') return this.listToJSON(shape.inner.item, Array.isArray(items) ? items : [], path, depth);
        return this.mapToJSON(shape.inner.value, (items ?? {}) as Record<string, unknown>, path, depth);
      }
      default:
        throw new ConvertError(`${shape.kind} is not a singular value`, path);
    }
  }

  /** A field's JSON value -> its message value (undefined: leave the field out). */
  private fieldFromJSON(shape: Shape, v: unknown, path: string): unknown {
    if (v === undefined) return undefined;
    switch (shape.kind) {
      case 'objectMeta':
        return objectMetaFromJSON(v);
      case 'listMeta':
        return listMetaFromJSON(v);
      case 'list':
        return v === null ? undefined : this.listFromJSON(shape.item, v, path);
      case 'map':
        return v === null ? undefined : this.mapFromJSON(shape.value, v, path);
      default:
        return v === null && shape.kind !== 'json' ? undefined : this.valueFromJSON(shape, v, path);
    }
  }

  private listFromJSON(item: Shape, v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) throw new ConvertError(`must be an array, not ${describe(v)}`, path);
    return v.map((x, i) => this.valueFromJSON(item, x, `${path}[${i}]`));
  }

  private mapFromJSON(value: Shape, v: unknown, path: string): Record<string, unknown> {
    const o = object(v, path);
    const out: Record<string, unknown> = {};
    for (const k of sortedKeys(o)) setOwn(out, k, this.valueFromJSON(value, o[k], `${path}[${JSON.stringify(k)}]`));
    return out;
  }

  /** One singular value; null fits only a JSON-text value (a list item or a map value cannot be absent). */
  private valueFromJSON(shape: Shape, v: unknown, path: string): unknown {
    switch (shape.kind) {
      case 'string':
        if (typeof v !== 'string') throw new ConvertError(`must be a string, not ${describe(v)}`, path);
        return v;
      case 'int64':
        if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) >= int64Limit) throw new ConvertError(`must be a 64-bit integer, not ${describeNumber(v)}`, path);
        return v;
      case 'double':
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConvertError(`must be a number, not ${describe(v)}`, path);
        return v;
      case 'bool':
        if (typeof v !== 'boolean') throw new ConvertError(`must be a boolean, not ${describe(v)}`, path);
        return v;
      case 'json':
        return Buffer.from(JSON.stringify(v), 'utf8');
      case 'intOrString':
        return intOrStringFromJSON(v, path);
      case 'message':
        return this.fromJSON(shape.message, object(v, path), path);
      case 'wrapper':
        return { items: shape.inner.kind === 'list' ? this.listFromJSON(shape.inner.item, v, path) : this.mapFromJSON(shape.inner.value, v, path) };
      default:
        throw new ConvertError(`${shape.kind} is not a singular value`, path);
    }
  }
}

/** A decoded nested message, or undefined. */
function message(v: unknown): Msg | undefined {
  return v != null && typeof v === 'object' ? (v as Msg) : undefined;
}

function object(v: unknown, path: string): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConvertError(`must be an object, not ${describe(v)}`, path);
  return v as JsonObject;
}

function describeNumber(v: unknown): string {
  return typeof v === 'number' ? String(v) : describe(v);
}

/** `intstr.IntOrString` -> its JSON (a number for type 0, a string for type 1), as its MarshalJSON writes it. */
function intOrStringToJSON(m: Msg, path: string): number | string {
  const type = has(m, 'type') ? int64(m.type) : 0;
  if (type === 0) return has(m, 'intVal') ? Number(m.intVal) : 0;
  if (type === 1) return typeof m.strVal === 'string' ? m.strVal : '';
  throw new ConvertError(`impossible IntOrString.Type ${type}`, path);
}

/** JSON -> `intstr.IntOrString`, every field written, as Go's marshaller writes them. */
function intOrStringFromJSON(v: unknown, path: string): Msg {
  if (typeof v === 'string') return { type: 1, intVal: 0, strVal: v };
  if (typeof v === 'number' && Number.isInteger(v) && v >= int32.min && v <= int32.max) return { type: 0, intVal: v, strVal: '' };
  throw new ConvertError(`must be a string or a 32-bit integer, not ${describeNumber(v)}`, path);
}
