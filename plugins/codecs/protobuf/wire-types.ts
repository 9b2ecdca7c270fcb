/*
 * What the wire reader and writer need to know of a protobufjs message type, worked out once per type: each field's
 * number, name, shape and value kind (enums are int32s on the wire).
 */
import protobuf from 'protobufjs';

export type Scalar = 'double' | 'float' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'sint32' | 'sint64' | 'fixed32' | 'fixed64' | 'sfixed32' | 'sfixed64' | 'bool' | 'string' | 'bytes';

/** What one value of a field is: a scalar (enums read as int32) or a message. */
export type ValueInfo = { readonly scalar: Scalar; readonly type?: undefined } | { readonly scalar?: undefined; readonly type: protobuf.Type };

export interface FieldInfo {
  readonly name: string;
  readonly id: number;
  readonly repeated: boolean;
  readonly packed: boolean;
  /** The key of a map field (string or an integer type). */
  readonly mapKey?: Scalar;
  readonly value: ValueInfo;
}

export interface TypeInfo {
  readonly byId: Map<number, FieldInfo>;
  /** Highest field number first: the order a backwards writer goes in. */
  readonly descending: FieldInfo[];
}

const infos = new Map<protobuf.Type, TypeInfo>();

function valueInfo(field: protobuf.Field | protobuf.MapField): ValueInfo {
  field.resolve();
  if (field.resolvedType instanceof protobuf.Type) return { type: field.resolvedType };
  if (field.resolvedType instanceof protobuf.Enum) return { scalar: 'int32' };
  return { scalar: field.type as Scalar };
}

export function infoOf(type: protobuf.Type): TypeInfo {
  let info = infos.get(type);
  if (info) return info;
  const fields: FieldInfo[] = type.fieldsArray.map((field) => ({
    name: field.name,
    id: field.id,
    repeated: field.repeated,
    packed: field.repeated && !(field instanceof protobuf.MapField) && field.packed,
    mapKey: field instanceof protobuf.MapField ? (field.keyType as Scalar) : undefined,
    value: valueInfo(field),
  }));
  info = { byId: new Map(fields.map((f) => [f.id, f])), descending: [...fields].sort((a, b) => b.id - a.id) };
  infos.set(type, info);
  return info;
}

export function wireTypeOf(value: ValueInfo): number {
  if (value.type) return 2;
  switch (value.scalar) {
    case 'string':
    case 'bytes':
      return 2;
    case 'double':
    case 'fixed64':
    case 'sfixed64':
      return 1;
    case 'float':
    case 'fixed32':
    case 'sfixed32':
      return 5;
    default:
      return 0;
  }
}
