/**
 * Custom-resource data as CEL values, per its schema declaration (Kubernetes' UnstructuredToVal): objects expose
 * their declared properties under escaped names, converted lazily; lists keep their x-kubernetes-list-type
 * semantics for equality and concatenation; formatted strings become bytes, durations and timestamps.
 */
import { fieldKey, type DeclType } from './schema-decl.js';
import { parseDate, parseRFC3339 } from '../../lib/cel/time.js';
import { parseGoDuration } from '../../lib/go/duration.js';
import { isDeepStrictEqual } from 'node:util';
import { CelError, Duration, StringKeyMap, Timestamp, celEquals, setListSemantics, type ObjectValue, type Val, type Value } from '../../lib/cel/values.js';
import { isGoInt } from '../../lib/go/go-values.js';

/** strfmt.ParseDateTime: RFC 3339, also with a `±hhmm` offset. */
export function parseDateTime(s: string): Timestamp | undefined {
  return parseRFC3339(s) ?? parseRFC3339(s.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/** A declared field of an object type as CEL reads it: its slot in the object's cache and its own type name. */
interface ShapeField {
  readonly index: number;
  /** The escaped name CEL sees. */
  readonly name: string;
  /** The property name in the JSON object. */
  readonly property: string;
  readonly decl: DeclType;
  readonly typeName: string;
  /** The field's named declaration, once a value of it was converted. */
  named?: NamedDecl;
}

/**
 * A declaration under one type name, worked out once: an object's fields (found by escaped name, and by a reserved
 * word for its escaped property, as `fieldKey` finds them) and the type name of list items and map values.
 */
interface NamedDecl {
  readonly decl: DeclType;
  readonly typeName: string;
  readonly nullable: boolean;
  readonly intOrString: boolean;
  readonly fields: ShapeField[];
  readonly byName: Map<string, ShapeField>;
  readonly byProperty: Map<string, ShapeField>;
  /** List items or map values, named when first needed. */
  elem?: NamedDecl;
  /** Converts a map value (one function for every map of this declaration). */
  convertElem?: (v: unknown) => Value;
}

const named = new WeakMap<DeclType, Map<string, NamedDecl>>();

function namedDecl(decl: DeclType, typeName: string): NamedDecl {
  let byTypeName = named.get(decl);
  if (!byTypeName) {
    byTypeName = new Map();
    named.set(decl, byTypeName);
  }
  let nd = byTypeName.get(typeName);
  if (!nd) {
    nd = buildNamedDecl(decl, typeName);
    byTypeName.set(typeName, nd);
  }
  return nd;
}

function buildNamedDecl(decl: DeclType, typeName: string): NamedDecl {
  const fields: ShapeField[] = [];
  const byName = new Map<string, ShapeField>();
  const byProperty = new Map<string, ShapeField>();
  for (const [name, f] of decl.fields ?? []) {
    const sf: ShapeField = { index: fields.length, name, property: f.property, decl: f.decl, typeName: `${typeName}.${name}` };
    fields.push(sf);
    byName.set(name, sf);
    byProperty.set(f.property, sf);
  }
  for (const sf of fields) {
    const word = /^__(.+)__$/.exec(sf.name)?.[1];
    if (word !== undefined && fieldKey(decl, word) === sf.name) byName.set(word, sf);
  }
  return { decl, typeName, nullable: !!decl.schema.nullable, intOrString: !!decl.schema['x-kubernetes-int-or-string'], fields, byName, byProperty };
}

function elemOf(nd: NamedDecl, suffix: '@idx' | '@elem'): NamedDecl {
  return (nd.elem ??= namedDecl(nd.decl.elem!, `${nd.typeName}.${suffix}`));
}

class SchemaObject implements ObjectValue {
  readonly isCelObject = true as const;
  /** Converted field values by field index (sized once: an empty array would grow on the first write). */
  private readonly values: (Val | undefined)[];

  constructor(
    private readonly nd: NamedDecl,
    private readonly raw: Record<string, unknown>,
  ) {
    this.values = new Array<Val | undefined>(nd.fields.length);
  }

  get typeName(): string {
    return this.nd.typeName;
  }

  /** Kubernetes treats a field set to null as absent. */
  field(name: string): Value | undefined {
    const f = this.nd.byName.get(name);
    return f ? this.value(f) : undefined;
  }

  private value(f: ShapeField): Value | undefined {
    const raw = this.raw;
    if (!Object.prototype.hasOwnProperty.call(raw, f.property) || raw[f.property] === null) return undefined;
    let v = this.values[f.index];
    if (v === undefined) {
      v = convert(raw[f.property], (f.named ??= namedDecl(f.decl, f.typeName)));
      this.values[f.index] = v;
    }
    // a field whose value cannot be converted reads as an error value
    return v as Value;
  }

  propertyField(property: string): Value | undefined {
    const f = this.nd.byProperty.get(property);
    if (f) return this.value(f);
    const v = this.raw[property];
    return typeof v === 'string' || typeof v === 'boolean' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined;
  }

  fieldNames(): string[] {
    const out: string[] = [];
    for (const f of this.nd.fields) if (this.raw[f.property] !== undefined && this.raw[f.property] !== null && hasOwn(this.raw, f.property)) out.push(f.name);
    return out;
  }

  size(): number {
    return Object.keys(this.raw).length;
  }

  /** Equality over all the data, including fields the schema does not declare (as Kubernetes compares objects). */
  equals(other: ObjectValue): boolean {
    if (!(other instanceof SchemaObject)) return false;
    const keys = Object.keys(this.raw).filter((k) => this.raw[k] !== null);
    const otherKeys = Object.keys(other.raw).filter((k) => other.raw[k] !== null);
    if (keys.length !== otherKeys.length) return false;
    for (const k of keys) {
      if (!hasOwn(other.raw, k) || other.raw[k] === null) return false;
      const declared = this.nd.byProperty.get(k)?.name;
      if (declared !== undefined) {
        const a = this.field(declared);
        const b = other.field(declared);
        if (a === undefined || b === undefined || a instanceof CelError || b instanceof CelError || !celEquals(a, b)) return false;
      } else if (!isDeepStrictEqual(this.raw[k], other.raw[k])) return false;
    }
    return true;
  }
}

function hasOwn(o: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

function base64Decode(s: string): Uint8Array | undefined {
  if (!/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  return new Uint8Array(Buffer.from(s, 'base64'));
}

const NOT_A_MAP = 'invalid data, expected a map for the provided schema with type=object';
const NOT_AN_ARRAY = 'invalid data, expected an array for the provided schema with type=array';

/**
 * The CEL value of JSON data declared by `decl`, with objects named from `typeName`. Data that does not match the
 * schema (which schema validation rejects before any rule runs) reads as Kubernetes' "invalid data" errors.
 */
export function toCel(raw: unknown, decl: DeclType, typeName: string): Val {
  return convert(raw, namedDecl(decl, typeName));
}

function convert(raw: unknown, nd: NamedDecl): Val {
  const decl = nd.decl;
  if (raw === null || raw === undefined) {
    return nd.nullable || raw === undefined ? null : new CelError('invalid data, got null for schema with nullable=false');
  }
  if (nd.intOrString && !(typeof raw === 'string' || (typeof raw === 'number' && Number.isInteger(raw)))) {
    return new CelError('invalid data, expected XIntOrString value to be either a string or integer');
  }
  switch (decl.kind) {
    case 'object':
      if (typeof raw !== 'object' || Array.isArray(raw)) return new CelError(NOT_A_MAP);
      return new SchemaObject(nd, raw as Record<string, unknown>);
    case 'map': {
      if (typeof raw !== 'object' || Array.isArray(raw)) return new CelError(NOT_A_MAP);
      if (!nd.convertElem) {
        const elem = elemOf(nd, '@elem');
        nd.convertElem = (v) => convert(v, elem) as Value;
      }
      return new StringKeyMap(raw as Record<string, unknown>, nd.convertElem);
    }
    case 'list': {
      if (!Array.isArray(raw)) return new CelError(NOT_AN_ARRAY);
      const elem = elemOf(nd, '@idx');
      const items: Value[] = new Array<Value>(raw.length);
      for (let i = 0; i < raw.length; i++) items[i] = convert(raw[i], elem) as Value;
      const lt = decl.schema['x-kubernetes-list-type'];
      if (lt === 'set') setListSemantics(items, { type: 'set' });
      else if (lt === 'map') setListSemantics(items, { type: 'map', keys: decl.schema['x-kubernetes-list-map-keys'] ?? [] });
      return items;
    }
    case 'int':
      return typeof raw === 'number' && Number.isInteger(raw) ? BigInt(raw) : generic(raw);
    case 'double':
      return typeof raw === 'number' ? raw : generic(raw);
    case 'bool':
    case 'string':
      return generic(raw);
    case 'dyn':
      return generic(raw);
    case 'bytes': {
      if (typeof raw !== 'string') return generic(raw);
      return base64Decode(raw) ?? new CelError(`string value '${raw}' is not a valid base64 bytes`);
    }
    case 'duration': {
      if (typeof raw !== 'string') return generic(raw);
      const n = parseGoDuration(raw);
      return n === undefined ? new CelError(`time: invalid duration ${JSON.stringify(raw)}`) : new Duration(n);
    }
    case 'date': {
      if (typeof raw !== 'string') return generic(raw);
      return parseDate(raw) ?? new CelError(`parsing time ${JSON.stringify(raw)} as "2006-01-02": cannot parse ${JSON.stringify(raw)}`);
    }
    case 'timestamp': {
      if (typeof raw !== 'string') return generic(raw);
      return parseDateTime(raw) ?? new CelError(`parsing time ${JSON.stringify(raw)}: not a valid date-time`);
    }
  }
}

/** JSON data without (usable) schema: numbers with no fraction are ints, as apimachinery decodes them. */
function generic(raw: unknown): Val {
  switch (typeof raw) {
    case 'string':
    case 'boolean':
      return raw;
    case 'number':
      return isGoInt(raw) ? BigInt(raw) : raw;
    default:
      return new CelError('no such overload');
  }
}
