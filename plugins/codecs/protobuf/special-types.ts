/*
 * Kubernetes types whose JSON form is not the plain shape of their protobuf message: timestamps and durations as
 * strings, IntOrString as a number or a string, raw JSON held in bytes, the schema-or-array/bool/strings unions of
 * apiextensions, and Verbs and ExtraValue (Go slices wrapped in a message). Each mirrors the type's MarshalJSON/UnmarshalJSON and its
 * protobuf marshaller; keyed by full message name.
 */
import { packages } from './schema.js';
import { ConvertError, describe, has, int64, int64Exact, parseRawJSON, rawJSON, type Msg } from './json-shape.js';
import { formatGoDuration } from '../../../lib/go/duration.js';
import { goZeroTimeUnixSeconds } from '../../../lib/go/timestamp.js';
import { formatRfc3339, normalizeUnix, parseGoDuration, parseRfc3339 } from './go-time.js';

/** The generic converter, for unions whose members are ordinary messages. */
export interface NestedConversion {
  /** A message (absent: undefined) of the named type as JSON. */
  toJSON(typeName: string, message: Msg | undefined): unknown;
  /** JSON as a message of the named type. */
  fromJSON(typeName: string, value: unknown): Msg;
  /** Nesting depth of the value at hand (limits raw JSON). */
  readonly depth: number;
}

export interface SpecialType {
  /** The JSON value of a message (undefined when absent from the wire); undefined leaves the field out. */
  toJSON(message: Msg | undefined, nested: NestedConversion): unknown;
  /** The message for a JSON value (null for a non-pointer field whose JSON is null or absent); undefined writes nothing. */
  fromJSON(value: unknown, nested: NestedConversion): Msg | undefined;
}

function jsonString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new ConvertError(`${what} must be a string, not ${describe(value)}`);
  return value;
}

/** metav1.Time / MicroTime: an empty message is the zero time (JSON null); otherwise time.Unix(seconds, nanos). */
function timestamp(fractionDigits: number): SpecialType {
  return {
    toJSON(m) {
      if (!m || (!has(m, 'seconds') && !has(m, 'nanos'))) return null;
      let nanos = has(m, 'nanos') ? Number(m.nanos) : 0;
      // MicroTime keeps microseconds only (Duration.Truncate, toward zero) before time.Unix normalizes.
      if (fractionDigits) nanos -= nanos % 1000;
      const t = normalizeUnix(int64(m.seconds), nanos);
      if (t.seconds === goZeroTimeUnixSeconds && t.nanos === 0) return null;
      return formatRfc3339(t.seconds, t.nanos, fractionDigits);
    },
    fromJSON(value) {
      if (value === null) return {};
      const t = parseRfc3339(jsonString(value, 'a time'));
      if (t.seconds === goZeroTimeUnixSeconds && t.nanos === 0) return {}; // Go writes nothing for the zero time
      return { seconds: t.seconds, nanos: fractionDigits ? t.nanos - (t.nanos % 1000) : t.nanos };
    },
  };
}

/** metav1.Duration: nanoseconds on the wire, time.Duration.String() in JSON. */
const duration: SpecialType = {
  toJSON: (m) => formatGoDuration(int64Exact(m?.duration)),
  fromJSON(value) {
    const ns = value === null ? 0n : parseGoDuration(jsonString(value, 'a duration'));
    return { duration: Number.isSafeInteger(Number(ns)) ? Number(ns) : ns.toString() };
  },
};

/** intstr.IntOrString: type 0 is an int32, type 1 a string; all three fields always written. */
const intOrString: SpecialType = {
  toJSON(m) {
    const type = int64(m?.type);
    if (type === 0) return has(m, 'intVal') ? Number(m!.intVal) : 0;
    if (type === 1) return has(m, 'strVal') ? String(m!.strVal) : '';
    throw new ConvertError('impossible IntOrString.Type');
  },
  fromJSON(value) {
    if (typeof value === 'string') return { type: 1, intVal: 0, strVal: value };
    if (value === null) return { type: 0, intVal: 0, strVal: '' };
    if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) {
      throw new ConvertError(`an IntOrString must be an int32 or a string, not ${JSON.stringify(value)}`);
    }
    return { type: 0, intVal: value, strVal: '' };
  },
};

/** Raw JSON in a bytes field (FieldsV1.Raw, apiextensions JSON.raw): absent or empty bytes is JSON null. */
function rawJSONHolder(field: string, what: string): SpecialType {
  return {
    toJSON(m, nested) {
      const raw = has(m, field) ? (m![field] as Uint8Array) : undefined;
      // FieldsV1 marshals a nil Raw as null; apiextensions JSON an empty one too.
      if (!raw || (raw.length === 0 && field === 'raw')) return null;
      return parseRawJSON(raw, nested.depth, what);
    },
    fromJSON: (value) => (value === null ? {} : { [field]: rawJSON(value) }),
  };
}

/**
 * A Go string slice type wrapped in a message `{ items }` (metav1.Verbs, authentication/v1 and authorization/v1
 * ExtraValue): a nil slice is not written and is JSON null; an empty one is an empty message and `[]`.
 */
function stringSlice(what: string, item: string): SpecialType {
  return {
    toJSON: (m) => (m ? [...((has(m, 'items') ? m.items : []) as string[])] : null),
    fromJSON(value) {
      if (value === null) return undefined;
      if (!Array.isArray(value)) throw new ConvertError(`${what} must be an array, not ${describe(value)}`);
      return { items: value.map((v) => jsonString(v, item)) };
    },
  };
}

const schemaProps = `${packages.apiextensionsV1}.JSONSchemaProps`;
const list = (m: Msg | undefined, key: string): unknown[] => (has(m, key) ? (m![key] as unknown[]) : []);

/** JSONSchemaPropsOrArray: an array when it holds schemas, else the schema (or null). */
const schemaOrArray: SpecialType = {
  toJSON(m, nested) {
    const schemas = list(m, 'jSONSchemas') as Msg[];
    if (schemas.length) return schemas.map((s) => nested.toJSON(schemaProps, s));
    return has(m, 'schema') ? nested.toJSON(schemaProps, m!.schema as Msg) : null;
  },
  fromJSON(value, nested) {
    if (Array.isArray(value)) return { jSONSchemas: value.map((v) => nested.fromJSON(schemaProps, v)) };
    if (value !== null && typeof value === 'object') return { schema: nested.fromJSON(schemaProps, value) };
    return {};
  },
};

/** JSONSchemaPropsOrBool: the schema when there is one, else the boolean; an object means `allows: true`. */
const schemaOrBool: SpecialType = {
  toJSON(m, nested) {
    if (has(m, 'schema')) return nested.toJSON(schemaProps, m!.schema as Msg);
    return has(m, 'allows') ? Boolean(m!.allows) : false;
  },
  fromJSON(value, nested) {
    if (typeof value === 'boolean') return { allows: value };
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { allows: true, schema: nested.fromJSON(schemaProps, value) };
    throw new ConvertError('boolean or JSON schema expected');
  },
};

/** JSONSchemaPropsOrStringArray: the property names when there are some, else the schema, else null. */
const schemaOrStrings: SpecialType = {
  toJSON(m, nested) {
    const property = list(m, 'property') as string[];
    if (property.length) return [...property];
    return has(m, 'schema') ? nested.toJSON(schemaProps, m!.schema as Msg) : null;
  },
  fromJSON(value, nested) {
    if (Array.isArray(value)) return { property: value.map((v) => jsonString(v, 'a property name')) };
    if (value !== null && typeof value === 'object') return { schema: nested.fromJSON(schemaProps, value) };
    return {};
  },
};

export const specialTypes: ReadonlyMap<string, SpecialType> = new Map([
  [`${packages.metaV1}.Time`, timestamp(0)],
  [`${packages.metaV1}.MicroTime`, timestamp(6)],
  [`${packages.metaV1}.Duration`, duration],
  [`${packages.metaV1}.FieldsV1`, rawJSONHolder('Raw', 'fieldsV1')],
  [`${packages.metaV1}.Verbs`, stringSlice('verbs', 'a verb')],
  [`${packages.authenticationV1}.ExtraValue`, stringSlice('extra values', 'an extra value')],
  [`${packages.authorizationV1}.ExtraValue`, stringSlice('an extra value', 'an extra value')],
  [`${packages.intstr}.IntOrString`, intOrString],
  [`${packages.apiextensionsV1}.JSON`, rawJSONHolder('raw', 'JSON')],
  [`${packages.apiextensionsV1}.JSONSchemaPropsOrArray`, schemaOrArray],
  [`${packages.apiextensionsV1}.JSONSchemaPropsOrBool`, schemaOrBool],
  [`${packages.apiextensionsV1}.JSONSchemaPropsOrStringArray`, schemaOrStrings],
]);
