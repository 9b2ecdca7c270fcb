/*
 * Small helpers shared by the message <-> JSON conversions. Decoded messages are protobufjs message instances: a
 * field that was on the wire is an own property, an absent one falls back to the prototype default. Presence
 * therefore is `hasOwnProperty`, which is what Go's pointer fields (`*int64`, `*bool`, `*Time`) preserve.
 */
import { maxBodyDepth } from '../../../core/contracts/body-decoding.js';

/** A value that cannot be converted (bad timestamp, bad raw JSON, wrong JSON type when encoding), and where it is. */
export class ConvertError extends Error {
  constructor(
    readonly detail: string,
    /** The JSON path of the value (`.spec.versions[0].name`), filled in on the way out. */
    readonly path = '',
  ) {
    super(path ? `${path.replace(/^\./, '')}: ${detail}` : detail);
    this.name = 'ConvertError';
  }

  /** The same error one level further out. */
  under(segment: string): ConvertError {
    return new ConvertError(this.detail, segment + this.path);
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

/** A decoded 64-bit integer (a number, or a bigint beyond 2^53; protobufjs gives a Long) as a JSON number. */
export function int64(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v && typeof (v as { toNumber?: unknown }).toNumber === 'function') return (v as { toNumber(): number }).toNumber();
  return 0;
}

/** A decoded 64-bit integer exactly, for values that may exceed 2^53 (durations in nanoseconds). */
export function int64Exact(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  if (v && typeof (v as { low?: unknown }).low === 'number') return BigInt((v as { toString(): string }).toString());
  return 0n;
}

/** Sets an own data property, also for a key such as `__proto__` that plain assignment would not store. */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/** Own keys sorted the way Go sorts map keys (encoding/json and the protobuf marshaller alike): by UTF-8 bytes. */
export function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  if (keys.length < 2) return keys;
  // Byte order equals UTF-16 code unit order except around surrogates; compare bytes only when it could matter.
  if (keys.every(belowSurrogates)) return keys.sort();
  return keys.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

function belowSurrogates(k: string): boolean {
  for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) >= 0xd800) return false;
  return true;
}

/** The name encoding/json and kube's errors give a JSON value's type. */
export function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Parses raw bytes that hold JSON (FieldsV1, apiextensions JSON), within what is left of kapi's body depth limit. */
export function parseRawJSON(raw: Uint8Array, depth: number, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch (err) {
    throw new ConvertError(`${what}: invalid JSON: ${(err as Error).message}`);
  }
  // Each level of nesting takes at least one byte ('{' or '['): short texts cannot be too deep.
  if (raw.length <= maxBodyDepth - depth) return value;
  const stack: [unknown, number][] = [[value, depth + 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > maxBodyDepth) throw new ConvertError(`${what}: nesting exceeds the maximum depth of ${maxBodyDepth}`);
    for (const child of Object.values(v as object)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return value;
}

/** JSON text as raw bytes, the way Go keeps json.RawMessage-like fields. */
export function rawJSON(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}
