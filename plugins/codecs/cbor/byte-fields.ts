import type { GoType } from '../../../lib/go/json-decoding.js';

/**
 * Where a kind's Go `[]byte` fields are (a Secret's `data` values, a ConfigMap's `binaryData` values, a webhook's
 * `caBundle`): kube's CBOR serializer writes them as byte strings of the raw bytes in tag 22 ("expected later base64
 * encoding"), where JSON has base64 text, and reads them back from byte strings. Only the parts of a Go type that lead
 * to such a field are kept; `name` is the Go type's name, as kube's decoding errors give it.
 */
export type ByteFields =
  | { readonly kind: 'bytes'; readonly name: string }
  | { readonly kind: 'struct'; readonly name: string; readonly fields: ReadonlyMap<string, ByteFields> }
  | { readonly kind: 'slice' | 'map'; readonly name: string; readonly elem: ByteFields };

/** Byte fields of types already walked (null: none); a type containing itself is cut at its second appearance. */
const walked = new WeakMap<GoType, ByteFields | null>();

/** The byte fields of a Go type, or undefined when it has none. */
export function byteFieldsOf(type: GoType): ByteFields | undefined {
  const known = walked.get(type);
  if (known !== undefined) return known ?? undefined;
  walked.set(type, null);
  const found = walk(type);
  walked.set(type, found ?? null);
  return found;
}

function walk(type: GoType): ByteFields | undefined {
  switch (type.kind) {
    case 'bytes':
      return { kind: 'bytes', name: type.name };
    case 'slice': {
      const elem = byteFieldsOf(type.elem);
      return elem && { kind: 'slice', name: type.name, elem };
    }
    case 'map': {
      const elem = byteFieldsOf(type.value);
      return elem && { kind: 'map', name: type.name, elem };
    }
    case 'struct': {
      const fields = new Map<string, ByteFields>();
      for (const [name, field] of Object.entries(typeof type.fields === 'function' ? type.fields() : type.fields)) {
        const found = byteFieldsOf(field);
        if (found) fields.set(name, found);
      }
      return fields.size > 0 ? { kind: 'struct', name: type.name, fields } : undefined;
    }
    default:
      return undefined;
  }
}

/** What `shape` says of the value under `key` of an object it describes. */
export function memberByteFields(shape: ByteFields | undefined, key: string): ByteFields | undefined {
  if (shape === undefined) return undefined;
  if (shape.kind === 'struct') return shape.fields.get(key);
  return shape.kind === 'map' ? shape.elem : undefined;
}

/** What `shape` says of the elements of an array it describes. */
export function elementByteFields(shape: ByteFields | undefined): ByteFields | undefined {
  return shape?.kind === 'slice' ? shape.elem : undefined;
}
