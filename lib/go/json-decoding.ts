/**
 * Go types described just enough to decode a JSON value as kube's JSON decoder (sigs.k8s.io/json, a fork of
 * encoding/json) decodes it into them: the error it reports when the value does not fit (`json: cannot unmarshal
 * string into Go struct field ValidatingWebhook.webhooks.timeoutSeconds of type int32`), and what it makes of JSON
 * nulls, and which fields of the document its structs do not have (unknown fields: kube's strict decoder reports them,
 * and decoding drops them). Built-in kinds are decoded with it before anything reads their fields; so are webhook
 * answers. A struct must list every field of kube's Go struct: a field it lacks is dropped from the object.
 */
import { jsonValueType } from './json-errors.js';

export type GoType =
  | { kind: 'string' | 'int32' | 'int64' | 'float64' | 'bool' | 'bytes' | 'json'; name: string }
  | { kind: 'struct'; name: string; fields: GoFields }
  | { kind: 'slice'; name: string; elem: GoType }
  | { kind: 'map'; name: string; value: GoType }
  /**
   * A type with its own UnmarshalJSON: `decodeAs` says which type the value is decoded as (undefined: accepted as
   * is), or returns the error text the method returns.
   */
  | { kind: 'unmarshaler'; name: string; decodeAs(value: unknown): GoType | string | undefined };

/** A struct's fields by JSON name; a function for types that contain themselves (JSONSchemaProps). */
export type GoFields = Record<string, GoType> | (() => Record<string, GoType>);

export type GoStructType = GoType & { kind: 'struct' };

export const goTypes = {
  string: (name = 'string'): GoType => ({ kind: 'string', name }),
  int32: { kind: 'int32', name: 'int32' } as GoType,
  int64: { kind: 'int64', name: 'int64' } as GoType,
  float64: { kind: 'float64', name: 'float64' } as GoType,
  bool: { kind: 'bool', name: 'bool' } as GoType,
  bytes: { kind: 'bytes', name: '[]uint8' } as GoType,
  /** Any JSON value (a RawExtension, apiextensions JSON, interface{}). */
  json: (name: string): GoType => ({ kind: 'json', name }),
  slice: (elem: GoType, name = `[]${elem.name}`): GoType => ({ kind: 'slice', name, elem }),
  map: (value: GoType, name = `map[string]${value.name}`): GoType => ({ kind: 'map', name, value }),
  struct: (name: string, fields: GoFields): GoStructType => ({ kind: 'struct', name, fields }),
  unmarshaler: (name: string, decodeAs: (value: unknown) => GoType | string | undefined): GoType => ({ kind: 'unmarshaler', name, decodeAs }),
};

function fieldsOf(type: GoStructType): Record<string, GoType> {
  return typeof type.fields === 'function' ? type.fields() : type.fields;
}

/** reflect.Type.Name(): the type's name without its package. */
function shortName(type: GoType): string {
  return type.name.replace(/^[a-z0-9]+\./, '');
}

/**
 * Where the decoder is: the innermost struct and the JSON names of the fields leading there (encoding/json's
 * errorContext), and the path strict errors name (sigs.k8s.io/json's: `spec.items[0].x`, map keys as fields).
 */
interface Context {
  struct?: string;
  path: string[];
  strictPath: string;
}

function fieldPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** kube's strict decoder keeps the first 100 distinct strict errors of a document and drops the rest. */
const MAX_STRICT_ERRORS = 100;

/** A decoding error: an UnmarshalTypeError (its text depends on the context it is reported in), or a plain one. */
type DecodeError = { value: string; type: string; ctx: Context } | { text: string };

function errorText(err: DecodeError): string {
  if ('text' in err) return err.text;
  const { value, type, ctx } = err;
  if (ctx.struct === undefined && ctx.path.length === 0) return `json: cannot unmarshal ${value} into Go value of type ${type}`;
  return `json: cannot unmarshal ${value} into Go struct field ${ctx.struct ?? ''}.${ctx.path.join('.')} of type ${type}`;
}

/** An error a custom UnmarshalJSON returned: decoding stops there (type mismatches are only saved, the first one wins). */
class Returned {
  constructor(readonly error: DecodeError) {}
}

/** Go's base64.StdEncoding.DecodeString error (newlines are skipped, as Go does). */
export function base64Error(s: string): string | undefined {
  const data = s.replace(/[\r\n]/g, '');
  const bad = data.search(/[^A-Za-z0-9+/=]|=[^=]|={3}/);
  if (bad >= 0) return `illegal base64 data at input byte ${data[bad] === '=' ? bad + 1 : bad}`;
  if (data.length % 4 !== 0) return `illegal base64 data at input byte ${data.length - (data.length % 4)}`;
  return undefined;
}

const intRanges = { int32: 2 ** 31, int64: 2 ** 63 };

class Decoder {
  saved?: DecodeError;
  /** The paths of the unknown fields reported (the first MAX_STRICT_ERRORS, each once). */
  readonly unknownFields: string[] = [];
  /** The first unknown field's index among the fields of its object (kube's CBOR decoder names it so). */
  firstUnknownIndex?: number;
  private readonly seenUnknown = new Set<string>();
  /** Every unknown field found, to drop once the document decodes. */
  readonly unknownKeys: Array<[Record<string, unknown>, string]> = [];

  /** `report`: whether unknown fields are reported (kube's custom UnmarshalJSON methods decode leniently: only dropped). */
  constructor(private readonly report = true) {}

  private unknown(struct: Record<string, unknown>, key: string, index: number, ctx: Context): void {
    this.unknownKeys.push([struct, key]);
    if (!this.report) return;
    this.firstUnknownIndex ??= index;
    if (this.unknownFields.length >= MAX_STRICT_ERRORS) return;
    const path = fieldPath(ctx.strictPath, key);
    if (this.seenUnknown.has(path)) return;
    this.seenUnknown.add(path);
    this.unknownFields.push(path);
  }

  private save(err: DecodeError): void {
    this.saved ??= err;
  }

  check(value: unknown, type: GoType, ctx: Context): void {
    if (value === null || value === undefined) return;
    // encoding/json names a mismatched number by its literal only when decoding into an integer.
    const mismatch = (valueText = jsonValueType(value)) => this.save({ value: valueText, type: type.name, ctx });
    switch (type.kind) {
      case 'json':
        return;
      case 'string':
        if (typeof value !== 'string') mismatch();
        return;
      case 'bool':
        if (typeof value !== 'boolean') mismatch();
        return;
      case 'float64':
        if (typeof value !== 'number') mismatch();
        return;
      case 'int32':
      case 'int64': {
        if (typeof value !== 'number') return mismatch();
        const limit = intRanges[type.kind];
        if (!Number.isInteger(value) || value < -limit || value >= limit) mismatch(`number ${value}`);
        return;
      }
      case 'bytes': {
        if (typeof value !== 'string') return mismatch();
        const err = base64Error(value);
        if (err) this.save({ text: err });
        return;
      }
      case 'slice':
        if (!Array.isArray(value)) return mismatch();
        value.forEach((item, i) => this.check(item, type.elem, { ...ctx, strictPath: `${ctx.strictPath}[${i}]` }));
        return;
      case 'map':
        if (typeof value !== 'object' || Array.isArray(value)) return mismatch();
        for (const [key, item] of Object.entries(value)) this.check(item, type.value, { ...ctx, strictPath: fieldPath(ctx.strictPath, key) });
        return;
      case 'struct': {
        if (typeof value !== 'object' || Array.isArray(value)) return mismatch();
        const fields = fieldsOf(type);
        const struct = value as Record<string, unknown>;
        // In the order of the document, as Go reads it (field names match case-sensitively in kube's decoder).
        Object.entries(struct).forEach(([key, item], index) => {
          const fieldType = Object.hasOwn(fields, key) ? fields[key] : undefined;
          const strictPath = fieldPath(ctx.strictPath, key);
          if (fieldType) this.check(item, fieldType, { struct: shortName(type), path: [...ctx.path, key], strictPath });
          else this.unknown(struct, key, index, ctx);
        });
        return;
      }
      case 'unmarshaler': {
        const as = type.decodeAs(value);
        if (typeof as === 'string') throw new Returned({ text: as });
        if (!as) return;
        // The method decodes with a lenient decoder of its own; the outer one then reports a type error in its own context.
        const inner = new Decoder(false);
        const err = inner.run(value, as, { path: [], strictPath: '' });
        if (err) throw new Returned('text' in err ? err : { ...err, ctx });
        for (const entry of inner.unknownKeys) this.unknownKeys.push(entry);
        return;
      }
    }
  }

  run(value: unknown, type: GoType, ctx: Context): DecodeError | undefined {
    try {
      this.check(value, type, ctx);
    } catch (err) {
      if (err instanceof Returned) return err.error;
      throw err;
    }
    return this.saved;
  }
}

/** The error decoding a JSON object into a Go struct type, as kube's decoder reports it; undefined when it decodes. */
export function goDecodeError(obj: object, type: GoStructType): string | undefined {
  const err = new Decoder().run(obj, type, { path: [], strictPath: '' });
  return err && errorText(err);
}

/** The JSON form of a Go type's zero value. */
function zeroValue(type: GoType): unknown {
  switch (type.kind) {
    case 'string':
    case 'bytes':
      return '';
    case 'int32':
    case 'int64':
    case 'float64':
      return 0;
    case 'bool':
      return false;
    case 'struct':
      return {};
    default:
      return null;
  }
}

/**
 * What decoding into the Go type makes of JSON nulls: a null struct field is left unset (dropped here), a null in a
 * list or map becomes the element's zero value (`""`, `0`, `{}`), as encoding/json leaves it. Call only on a value
 * `goDecodeError` accepted.
 */
export function fillGoZeroValues(value: unknown, type: GoType): void {
  if (value === null || typeof value !== 'object') return;
  if (type.kind === 'unmarshaler') {
    const as = type.decodeAs(value);
    if (as && typeof as !== 'string') fillGoZeroValues(value, as);
  } else if (type.kind === 'slice' && Array.isArray(value)) {
    value.forEach((item, i) => {
      if (item === null) value[i] = zeroValue(type.elem);
      else fillGoZeroValues(item, type.elem);
    });
  } else if (type.kind === 'map') {
    const map = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(map)) {
      if (v === null) map[k] = zeroValue(type.value);
      else fillGoZeroValues(v, type.value);
    }
  } else if (type.kind === 'struct') {
    const fields = fieldsOf(type);
    const struct = value as Record<string, unknown>;
    for (const [k, fieldType] of Object.entries(fields)) {
      if (struct[k] === null) delete struct[k];
      else fillGoZeroValues(struct[k], fieldType);
    }
  }
}

/** The unknown fields decoding found: their paths (as kube's strict JSON decoder reports them), the first one's index in its object. */
export interface GoUnknownFields {
  unknownFields: string[];
  firstUnknownIndex?: number;
}

/** What decoding a document into a Go type found: the decoder's error, or the unknown fields it dropped. */
export type GoDecoded = { error: string; unknownFields?: undefined } | ({ error?: undefined } & GoUnknownFields);

/**
 * Decodes a JSON object into a Go struct type in place, as kube's strict decoder does: unknown fields are dropped
 * (`keepUnknown`: left in place, for a caller that refuses them itself) and their paths returned, the nulls become
 * what Go leaves; or the decoder's error when the object does not fit (the object is then left as it was).
 */
export function goDecode(obj: object, type: GoStructType, { keepUnknown = false } = {}): GoDecoded {
  const decoder = new Decoder();
  const err = decoder.run(obj, type, { path: [], strictPath: '' });
  if (err) return { error: errorText(err) };
  if (!keepUnknown) for (const [struct, key] of decoder.unknownKeys) delete struct[key];
  fillGoZeroValues(obj, type);
  const { unknownFields, firstUnknownIndex } = decoder;
  return firstUnknownIndex === undefined ? { unknownFields } : { unknownFields, firstUnknownIndex };
}
