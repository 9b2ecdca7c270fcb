/**
 * The CEL declaration of a structural schema (Kubernetes' SchemaDeclType): objects with properties are object types
 * whose fields are the escapable property names, `additionalProperties` objects are maps, arrays are lists, strings
 * with format byte/duration/date/date-time are bytes/duration/timestamp, integers are int (int64), numbers double,
 * x-kubernetes-int-or-string is dyn. Each declaration carries Kubernetes' size estimates (max elements, minimum
 * serialized size) for cost estimation. Resource roots (and embedded resources) always expose apiVersion, kind and
 * metadata.name/generateName.
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { escapeProperty, isReservedSymbol } from '../../lib/cel/escaping.js';
import { T, type ObjectDecl, type Type } from '../../lib/cel/types.js';

export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

export type DeclKind = 'object' | 'map' | 'list' | 'string' | 'bytes' | 'duration' | 'timestamp' | 'date' | 'bool' | 'int' | 'double' | 'dyn';

export interface DeclField {
  /** The property name in the JSON object. */
  property: string;
  decl: DeclType;
  required: boolean;
}

export interface DeclType {
  kind: DeclKind;
  /** The node's schema (for a resource root: with apiVersion, kind and metadata added). */
  schema: JSONSchemaProps;
  /** Kubernetes' MaxElements: max string length, list items or map entries (0 for scalars). */
  maxElements: number;
  minSerializedSize: number;
  /** List items or map values. */
  elem?: DeclType;
  /** Object fields by escaped name. */
  fields?: Map<string, DeclField>;
}

function zeroIfNegative(n: number): number {
  return n < 0 ? 0 : n;
}

function estimateMaxStringLengthPerRequest(s: JSONSchemaProps): number {
  if (s['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

export function estimateMaxArrayItemsFromMinSize(minSize: number): number {
  return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 1));
}

function estimateMaxAdditionalPropertiesFromMinSize(minSize: number): number {
  return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 6));
}

const isType = (s: JSONSchemaProps | undefined, t: string): boolean => !!s && s.type === t;

/** Kubernetes' WithTypeAndObjectMeta: a resource root always declares apiVersion, kind, metadata.name/generateName. */
export function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const p = s.properties;
  if (
    p &&
    isType(p.kind, 'string') &&
    isType(p.apiVersion, 'string') &&
    isType(p.metadata, 'object') &&
    p.metadata.properties &&
    isType(p.metadata.properties.name, 'string') &&
    isType(p.metadata.properties.generateName, 'string')
  ) {
    return s;
  }
  return {
    ...s,
    properties: {
      ...(p ?? {}),
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

const cache = new WeakMap<JSONSchemaProps, { root?: DeclType | null; plain?: DeclType | null }>();

/** The CEL declaration of a schema node (undefined when the node is not visible to CEL). */
export function schemaDeclType(s: JSONSchemaProps | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (!s) return undefined;
  let c = cache.get(s);
  if (!c) {
    c = {};
    cache.set(s, c);
  }
  const key = isResourceRoot ? 'root' : 'plain';
  if (c[key] === undefined) c[key] = build(s, isResourceRoot) ?? null;
  return c[key] ?? undefined;
}

function build(input: JSONSchemaProps, isResourceRoot: boolean): DeclType | undefined {
  if (input['x-kubernetes-int-or-string']) {
    return {
      kind: 'dyn',
      schema: input,
      minSerializedSize: 1,
      maxElements: input.maxLength !== undefined ? zeroIfNegative(input.maxLength) * 4 : estimateMaxStringLengthPerRequest(input),
    };
  }
  const s = isResourceRoot ? withTypeAndObjectMeta(input) : input;
  switch (s.type) {
    case 'array': {
      if (!s.items) return undefined;
      const elem = schemaDeclType(s.items, !!s.items['x-kubernetes-embedded-resource']);
      if (!elem) return undefined;
      const maxItems = s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : estimateMaxArrayItemsFromMinSize(elem.minSerializedSize);
      return { kind: 'list', schema: s, elem, maxElements: maxItems, minSerializedSize: 2 };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap && typeof ap === 'object') {
        const elem = schemaDeclType(ap, !!ap['x-kubernetes-embedded-resource']);
        if (!elem) return undefined;
        const maxProps = s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : estimateMaxAdditionalPropertiesFromMinSize(elem.minSerializedSize);
        return { kind: 'map', schema: s, elem, maxElements: maxProps, minSerializedSize: 2 };
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, DeclField>();
      let minSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const decl = schemaDeclType(prop, !!prop['x-kubernetes-embedded-resource']);
        if (!decl) continue;
        const escaped = escapeProperty(name);
        if (escaped !== undefined) fields.set(escaped, { property: name, decl, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) minSize += name.length + decl.minSerializedSize + 4;
      }
      return { kind: 'object', schema: s, fields, maxElements: 0, minSerializedSize: minSize };
    }
    case 'string': {
      switch (s.format) {
        case 'byte':
          return { kind: 'bytes', schema: s, minSerializedSize: MIN_STRING_SIZE, maxElements: s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : estimateMaxStringLengthPerRequest(s) };
        case 'duration':
          return { kind: 'duration', schema: s, minSerializedSize: MIN_DURATION_SIZE_JSON, maxElements: estimateMaxStringLengthPerRequest(s) };
        case 'date':
          return { kind: 'date', schema: s, minSerializedSize: JSON_DATE_SIZE, maxElements: estimateMaxStringLengthPerRequest(s) };
        case 'date-time':
          return { kind: 'timestamp', schema: s, minSerializedSize: MIN_DATETIME_SIZE_JSON, maxElements: estimateMaxStringLengthPerRequest(s) };
        default:
          break;
      }
      let max: number;
      if (s.maxLength !== undefined) max = zeroIfNegative(s.maxLength) * 4;
      else if (s.enum?.length) max = Math.max(0, ...s.enum.map((e) => (typeof e === 'string' ? Buffer.byteLength(e) : 0)));
      else max = estimateMaxStringLengthPerRequest(s);
      return { kind: 'string', schema: s, minSerializedSize: MIN_STRING_SIZE, maxElements: max };
    }
    case 'boolean':
      return { kind: 'bool', schema: s, minSerializedSize: MIN_BOOL_SIZE, maxElements: 0 };
    case 'number':
      return { kind: 'double', schema: s, minSerializedSize: MIN_NUMBER_SIZE, maxElements: 0 };
    case 'integer':
      return { kind: 'int', schema: s, minSerializedSize: MIN_NUMBER_SIZE, maxElements: 0 };
    default:
      return undefined;
  }
}

/**
 * The declared field `name` of an object; a CEL reserved word also finds its escaped property (`self.namespace`
 * reads `__namespace__`), as Kubernetes' type provider does since 1.31 (RecognizeKeywordAsFieldName).
 */
export function lookupField(decl: DeclType, name: string): DeclField | undefined {
  const key = fieldKey(decl, name);
  return key === undefined ? undefined : decl.fields!.get(key);
}

/** The (escaped) key under which `lookupField` finds `name`. */
export function fieldKey(decl: DeclType, name: string): string | undefined {
  if (decl.fields?.has(name)) return name;
  if (isReservedSymbol(name) && decl.fields?.has(`__${name}__`)) return `__${name}__`;
  return undefined;
}

const typeCache = new WeakMap<DeclType, Map<string, Type>>();

/**
 * The CEL type of a declaration whose objects are named from `name` (Kubernetes' MaybeAssignTypeName: object fields
 * `name.field`, list items `name.@idx`, map values `name.@elem`).
 */
export function celTypeOf(decl: DeclType, name: string): Type {
  let byName = typeCache.get(decl);
  if (!byName) {
    byName = new Map();
    typeCache.set(decl, byName);
  }
  let t = byName.get(name);
  if (t) return t;
  switch (decl.kind) {
    case 'object': {
      const fieldTypes = new Map<string, Type>();
      const objDecl: ObjectDecl = {
        name,
        field: (f) => {
          const key = fieldKey(decl, f);
          if (key === undefined) return undefined;
          const fd = decl.fields!.get(key)!;
          f = key;
          let ft = fieldTypes.get(f);
          if (!ft) {
            ft = celTypeOf(fd.decl, `${name}.${f}`);
            fieldTypes.set(f, ft);
          }
          return ft;
        },
      };
      t = { kind: 'object', name, decl: objDecl };
      break;
    }
    case 'list':
      t = T.list(celTypeOf(decl.elem!, `${name}.@idx`));
      break;
    case 'map':
      t = T.map(T.string, celTypeOf(decl.elem!, `${name}.@elem`));
      break;
    case 'string':
      t = T.string;
      break;
    case 'bytes':
      t = T.bytes;
      break;
    case 'duration':
      t = T.duration;
      break;
    case 'timestamp':
    case 'date':
      t = T.timestamp;
      break;
    case 'bool':
      t = T.bool;
      break;
    case 'int':
      t = T.int;
      break;
    case 'double':
      t = T.double;
      break;
    case 'dyn':
      t = T.dyn;
      break;
  }
  byName.set(name, t);
  return t;
}

/** The declaration at a cost-estimator path below `root` (`@items`, `@values`, `@keys`, field names), if known. */
export function declAtPath(root: DeclType, path: string[]): DeclType | undefined {
  let cur: DeclType | undefined = root;
  for (const p of path) {
    if (!cur) return undefined;
    if (p === '@items' || p === '@values') cur = cur.elem;
    else if (p === '@keys') cur = cur.kind === 'map' ? { kind: 'string', schema: { type: 'string' }, maxElements: 0, minSerializedSize: 2 } : undefined;
    else cur = lookupField(cur, p)?.decl;
  }
  return cur;
}
