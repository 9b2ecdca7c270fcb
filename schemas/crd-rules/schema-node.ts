/**
 * Reading a CRD schema (an untrusted JSON value) the way kube-apiserver sees it once decoded into apiextensions'
 * JSONSchemaProps: a JSON null is an unset field, a field of the wrong JSON type counts as unset, and "set" follows Go's
 * zero values (an empty string or `false` is unset; a pointer field such as `maximum` is set even when 0).
 * Field paths are printed as apimachinery's field.Path does: `.child`, `[key]`, `[index]`.
 */

export type SchemaNode = Record<string, unknown>;

export function isNode(x: unknown): x is SchemaNode {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The value of an own field, undefined when absent or null. */
export function field(s: SchemaNode, name: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(s, name)) return undefined;
  const v = s[name];
  return v === null ? undefined : v;
}

/** A string field ('' when unset, as Go's zero value). */
export function str(s: SchemaNode, name: string): string {
  const v = field(s, name);
  return typeof v === 'string' ? v : '';
}

/** A bool field: true only when it is `true`. */
export function flag(s: SchemaNode, name: string): boolean {
  return field(s, name) === true;
}

/** Whether a pointer-typed field (`*string`, `*bool`, `*float64`, `*JSON`, ...) is non-nil. */
export function present(s: SchemaNode, name: string): boolean {
  return field(s, name) !== undefined;
}

/** An array field ([] when unset). */
export function list(s: SchemaNode, name: string): unknown[] {
  const v = field(s, name);
  return Array.isArray(v) ? v : [];
}

/** An array field of schemas (non-objects read as empty schemas, as they would fail to decode otherwise). */
export function schemaList(s: SchemaNode, name: string): SchemaNode[] {
  return list(s, name).map((x) => (isNode(x) ? x : {}));
}

/** A map field's entries, ordered by key (kube walks Go maps in random order; sorted is our fixed choice). */
export function entries(s: SchemaNode, name: string): [string, SchemaNode][] {
  const v = field(s, name);
  if (!isNode(v)) return [];
  return Object.keys(v)
    .sort(compareKeys)
    .map((k) => [k, isNode(v[k]) ? (v[k] as SchemaNode) : {}]);
}

/** The number of entries of a map field (Go's `len(map)`). */
export function mapSize(s: SchemaNode, name: string): number {
  const v = field(s, name);
  return isNode(v) ? Object.keys(v).length : 0;
}

/** A map field's value for `key` as a schema (undefined when absent). */
export function mapValue(s: SchemaNode, name: string, key: string): SchemaNode | undefined {
  const v = field(s, name);
  if (!isNode(v) || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
  const x = v[key];
  return isNode(x) ? x : {};
}

/** `items` as a single schema (JSONSchemaPropsOrArray.Schema), undefined for an array or when unset. */
export function itemsSchema(s: SchemaNode): SchemaNode | undefined {
  const v = field(s, 'items');
  return isNode(v) ? v : undefined;
}

/** `items` as an array of schemas (JSONSchemaPropsOrArray.JSONSchemas). */
export function itemsArray(s: SchemaNode): SchemaNode[] {
  const v = field(s, 'items');
  return Array.isArray(v) ? v.map((x) => (isNode(x) ? x : {})) : [];
}

/** `additionalProperties` as a schema (JSONSchemaPropsOrBool.Schema), undefined for a bool or when unset. */
export function additionalSchema(s: SchemaNode): SchemaNode | undefined {
  const v = field(s, 'additionalProperties');
  return isNode(v) ? v : undefined;
}

/** Whether `additionalProperties` is set at all (JSONSchemaPropsOrBool non-nil): a schema, true or false. */
export function hasAdditional(s: SchemaNode): boolean {
  const v = field(s, 'additionalProperties');
  return typeof v === 'boolean' || isNode(v);
}

/** `additionalProperties` allows values: a schema or true (JSONSchemaPropsOrBool.Allows). */
export function additionalAllows(s: SchemaNode): boolean {
  const v = field(s, 'additionalProperties');
  return v === true || isNode(v);
}

/** Byte-wise key order (Go's sort.Strings for the ASCII names that occur in practice). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** field.Path `Child`. */
export function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** field.Path `Key` (printed unquoted: `properties[spec]`). */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

/** field.Path `Index`. */
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** The schema nodes below `s` that kube's SchemaHas visits (items, junctors, properties, additionalProperties, ...). */
export function subSchemas(s: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [];
  const items = itemsSchema(s);
  if (items) out.push(items);
  out.push(...itemsArray(s));
  for (const name of ['allOf', 'anyOf', 'oneOf']) out.push(...schemaList(s, name));
  const not = field(s, 'not');
  if (isNode(not)) out.push(not);
  for (const [, p] of entries(s, 'properties')) out.push(p);
  const ap = additionalSchema(s);
  if (ap) out.push(ap);
  for (const [, p] of entries(s, 'patternProperties')) out.push(p);
  const ai = field(s, 'additionalItems');
  if (isNode(ai)) out.push(ai);
  for (const [, p] of entries(s, 'definitions')) out.push(p);
  const deps = field(s, 'dependencies');
  if (isNode(deps)) for (const d of Object.values(deps)) if (isNode(d)) out.push(d);
  return out;
}

/** kube's SchemaHas: whether `pred` holds for `s` or any schema below it. */
export function schemaHas(s: unknown, pred: (s: SchemaNode) => boolean): boolean {
  if (!isNode(s)) return false;
  if (pred(s)) return true;
  return subSchemas(s).some((x) => schemaHas(x, pred));
}
