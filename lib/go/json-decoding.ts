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

const resolvedFields = new WeakMap<GoStructType, Record<string, GoType>>();

/** A struct's fields; those of a self-containing type are made once (a CRD's schema has a JSONSchemaProps per node). */
function fieldsOf(type: GoStructType): Record<string, GoType> {
  if (typeof type.fields !== 'function') return type.fields;
  let fields = resolvedFields.get(type);
  if (!fields) resolvedFields.set(type, (fields = type.fields()));
  return fields;
}

const shortNames = new WeakMap<GoType, string>();

/** reflect.Type.Name(): the type's name without its package. */
function shortName(type: GoType): string {
  let name = shortNames.get(type);
  if (name === undefined) shortNames.set(type, (name = type.name.replace(/^[a-z0-9]+\./, '')));
  return name;
}

/**
 * Where the decoder is, as a chain of steps from the document's root (undefined): made as the decoder descends into
 * structs, slices and maps, and read only when an error or an unknown field must be named — encoding/json's
 * errorContext (the innermost struct and the JSON names of the struct fields leading there) and the path
 * sigs.k8s.io/json's strict errors name (`spec.items[0].x`, map keys as fields).
 */
interface Place {
  readonly up: Place | undefined;
  /** The field name or map key, or the slice index, leading here from `up`. */
  readonly step: string | number;
  /** Whether `step` is a struct field (errorContext names only those). */
  readonly field: boolean;
  /** The innermost struct's name. */
  readonly struct: string | undefined;
}

/** errorContext's field names, from the root. */
function fieldNames(at: Place | undefined): string[] {
  const names: string[] = [];
  for (let p = at; p; p = p.up) if (p.field) names.push(p.step as string);
  return names.reverse();
}

/** The strict decoder's path of `at`, with `key` appended when given. */
function strictPath(at: Place | undefined, key?: string): string {
  const steps: Array<string | number> = key === undefined ? [] : [key];
  for (let p = at; p; p = p.up) steps.push(p.step);
  let path = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    path += typeof step === 'number' ? `[${step}]` : path === '' ? step : `.${step}`;
  }
  return path;
}

/** kube's strict decoder keeps the first 100 distinct strict errors of a document and drops the rest. */
const MAX_STRICT_ERRORS = 100;

/** A decoding error: an UnmarshalTypeError (its text depends on where it is reported), or a plain one. */
type DecodeError = { value: string; type: string; at: Place | undefined } | { text: string };

function errorText(err: DecodeError): string {
  if ('text' in err) return err.text;
  const { value, type, at } = err;
  const names = fieldNames(at);
  if (at?.struct === undefined && names.length === 0) return `json: cannot unmarshal ${value} into Go value of type ${type}`;
  return `json: cannot unmarshal ${value} into Go struct field ${at?.struct ?? ''}.${names.join('.')} of type ${type}`;
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

/** Whether `value` needs no look beyond this: absent, any JSON, or a string where a string goes (most fields). */
function trivially(value: unknown, type: GoType): boolean {
  return value === null || value === undefined || type.kind === 'json' || (type.kind === 'string' && typeof value === 'string');
}

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

  private unknown(struct: Record<string, unknown>, key: string, index: number, at: Place | undefined): void {
    this.unknownKeys.push([struct, key]);
    if (!this.report) return;
    this.firstUnknownIndex ??= index;
    if (this.unknownFields.length >= MAX_STRICT_ERRORS) return;
    const path = strictPath(at, key);
    if (this.seenUnknown.has(path)) return;
    this.seenUnknown.add(path);
    this.unknownFields.push(path);
  }

  private save(err: DecodeError): void {
    this.saved ??= err;
  }

  check(value: unknown, type: GoType, at: Place | undefined): void {
    if (value === null || value === undefined) return;
    // encoding/json names a mismatched number by its literal only when decoding into an integer.
    const mismatch = (valueText = jsonValueType(value)) => this.save({ value: valueText, type: type.name, at });
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
      case 'slice': {
        if (!Array.isArray(value)) return mismatch();
        const struct = at?.struct;
        for (let i = 0; i < value.length; i++) {
          if (!trivially(value[i], type.elem)) this.check(value[i], type.elem, { up: at, step: i, field: false, struct });
        }
        return;
      }
      case 'map': {
        if (typeof value !== 'object' || Array.isArray(value)) return mismatch();
        const map = value as Record<string, unknown>;
        const struct = at?.struct;
        for (const key of Object.keys(map)) {
          if (!trivially(map[key], type.value)) this.check(map[key], type.value, { up: at, step: key, field: false, struct });
        }
        return;
      }
      case 'struct': {
        if (typeof value !== 'object' || Array.isArray(value)) return mismatch();
        const fields = fieldsOf(type);
        const struct = value as Record<string, unknown>;
        const name = shortName(type);
        // In the order of the document, as Go reads it (field names match case-sensitively in kube's decoder).
        const keys = Object.keys(struct);
        for (let index = 0; index < keys.length; index++) {
          const key = keys[index];
          const fieldType = Object.hasOwn(fields, key) ? fields[key] : undefined;
          if (!fieldType) this.unknown(struct, key, index, at);
          else if (!trivially(struct[key], fieldType)) this.check(struct[key], fieldType, { up: at, step: key, field: true, struct: name });
        }
        return;
      }
      case 'unmarshaler': {
        const as = type.decodeAs(value);
        if (typeof as === 'string') throw new Returned({ text: as });
        if (!as) return;
        // The method decodes with a lenient decoder of its own; the outer one then reports a type error where it is.
        const inner = new Decoder(false);
        const err = inner.run(value, as);
        if (err) throw new Returned('text' in err ? err : { ...err, at });
        for (const entry of inner.unknownKeys) this.unknownKeys.push(entry);
        return;
      }
    }
  }

  run(value: unknown, type: GoType): DecodeError | undefined {
    try {
      this.check(value, type, undefined);
    } catch (err) {
      if (err instanceof Returned) return err.error;
      throw err;
    }
    return this.saved;
  }
}

/** The error decoding a JSON object into a Go struct type, as kube's decoder reports it; undefined when it decodes. */
export function goDecodeError(obj: object, type: GoStructType): string | undefined {
  const err = new Decoder().run(obj, type);
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
    for (const k of Object.keys(struct)) {
      if (!Object.hasOwn(fields, k)) continue;
      if (struct[k] === null) delete struct[k];
      else fillGoZeroValues(struct[k], fields[k]);
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
  const err = decoder.run(obj, type);
  if (err) return { error: errorText(err) };
  if (!keepUnknown) for (const [struct, key] of decoder.unknownKeys) delete struct[key];
  fillGoZeroValues(obj, type);
  const { unknownFields, firstUnknownIndex } = decoder;
  return firstUnknownIndex === undefined ? { unknownFields } : { unknownFields, firstUnknownIndex };
}
