/*
 * Small helpers shared by the message <-> JSON conversions. Decoded messages are protobufjs message instances: a
 * field that was on the wire is an own property, an absent one falls back to the prototype default. Presence
 * therefore is `hasOwnProperty`, which is what Go's pointer fields (`*int64`, `*bool`, `*Time`) preserve.
 */

/** A value that cannot be converted (bad timestamp, bad FieldsV1 JSON, wrong JSON type when encoding). */
export class ConvertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConvertError';
  }
}

/** A decoded protobufjs message (or a plain object handed to `Type.encode`). */
export type Msg = Record<string, unknown>;
/** A JSON-shaped object. */
export type JsonObject = Record<string, unknown>;

/** The field was present on the wire (or set, for a message being built for encoding). */
export function has(m: Msg | null | undefined, key: string): boolean {
  return m != null && Object.prototype.hasOwnProperty.call(m, key);
}

/** A nested message that was present, or undefined. */
export function sub(m: Msg | null | undefined, key: string): Msg | undefined {
  return has(m, key) && m![key] != null ? (m![key] as Msg) : undefined;
}

/** A Go non-pointer string: the wire value or "". */
export function str(m: Msg | null | undefined, key: string): string {
  return has(m, key) && typeof m![key] === 'string' ? (m![key] as string) : '';
}

/** protobufjs yields int64 as a Long (long.js is installed) or a number; JSON carries numbers, as kube's does. */
export function int64(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof (v as { toNumber?: unknown }).toNumber === 'function') return (v as { toNumber(): number }).toNumber();
  return 0;
}

/** A repeated field's values (protobufjs leaves a shared empty array on the prototype when absent). */
export function list<T>(m: Msg | null | undefined, key: string): T[] {
  return has(m, key) && Array.isArray(m![key]) ? (m![key] as T[]) : [];
}

/** A `map<string,string>` field as a fresh object with keys in Go's (byte-wise sorted) order, or undefined if empty. */
export function stringMap(m: Msg | null | undefined, key: string): Record<string, string> | undefined {
  if (!has(m, key) || m![key] == null) return undefined;
  const source = m![key] as Record<string, string>;
  const keys = sortedKeys(source);
  if (keys.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const k of keys) setOwn(out, k, source[k]);
  return out;
}

/** Sets an own data property, also for a key such as `__proto__` that plain assignment would not store. */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Own keys sorted the way Go sorts map keys when marshalling (by UTF-8 bytes). */
export function sortedKeys(o: object): string[] {
  return Object.keys(o).sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

// ---- JSON -> message (encoding) ----------------------------------------------------------------------------------

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A JSON object member that must be an object (or absent/null). */
export function jsonObject(v: unknown, path: string): JsonObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new ConvertError(`${path} must be an object, not ${describe(v)}`);
  return v as JsonObject;
}

/** A Go string from JSON: absent or null is "". */
export function jsonString(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ConvertError(`${path} must be a string, not ${describe(v)}`);
  return v;
}

/** An integer from JSON (absent or null: undefined). */
export function jsonInt(v: unknown, path: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new ConvertError(`${path} must be an integer, not ${describe(v)}`);
  return v;
}

/** A boolean from JSON (absent or null: undefined). */
export function jsonBool(v: unknown, path: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new ConvertError(`${path} must be a boolean, not ${describe(v)}`);
  return v;
}

/** An array from JSON (absent or null: empty). */
export function jsonArray(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ConvertError(`${path} must be an array, not ${describe(v)}`);
  return v;
}

/** A string array from JSON. */
export function jsonStrings(v: unknown, path: string): string[] {
  return jsonArray(v, path).map((s, i) => jsonString(s, `${path}[${i}]`));
}

/** A `map[string]string` from JSON, keys in Go's sorted order (absent, null or empty: undefined). */
export function jsonStringMap(v: unknown, path: string): Record<string, string> | undefined {
  const o = jsonObject(v, path);
  if (!o) return undefined;
  const keys = sortedKeys(o);
  if (keys.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const k of keys) setOwn(out, k, jsonString(o[k], `${path}[${JSON.stringify(k)}]`));
  return out;
}
