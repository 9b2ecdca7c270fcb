/**
 * RFC 6902 JSON patch applied as kube-apiserver applies a mutating webhook's patch (gopkg.in/evanphx/json-patch.v4):
 * its quirks (`replace` of a missing object key adds it, negative array indices count from the end) and its error
 * texts (`add operation does not apply: doc is missing path: "/spec/x/y": missing value`).
 */
import { goJsonParseError } from '../../lib/go/json-errors.js';
import { setOwnField } from '../../lib/codec/own-field.js';

/** A patch that cannot be applied; the message is json-patch's. */
export class JsonPatchError extends Error {}

/** A `test` operation that did not hold (json-patch's ErrTestFailed). */
export class JsonPatchTestFailed extends JsonPatchError {}

type Container = Record<string, unknown> | unknown[];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** json-patch's errors.Wrapf(cause, …) text. */
const wrap = (message: string, cause: string) => new JsonPatchError(`${message}: ${cause}`);
const missing = (message: string) => wrap(message, 'missing value');
const invalidIndex = (idx: number) => wrap(`Unable to access invalid index: ${idx}`, 'invalid index referenced');

/** RFC 6901 token decoding. */
const decodeKey = (k: string) => k.replace(/~1/g, '/').replace(/~0/g, '~');

/** Go's strconv.Atoi, with its error text. */
function atoi(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) throw new JsonPatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  return Number(key);
}

/**
 * An object's own member `key` (members are set with setOwnField): a key is plain data in Go's maps, and `__proto__`
 * must never reach or replace a prototype here, where paths come from webhooks and policies.
 */
function member(con: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(con, key) ? con[key] : undefined;
}

function get(con: Container, key: string): unknown {
  if (!Array.isArray(con)) return member(con, key);
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -con.length) throw invalidIndex(idx);
    idx += con.length;
  }
  if (idx >= con.length) throw invalidIndex(idx);
  return con[idx];
}

function set(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setOwnField(con, key, value);
    return;
  }
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -con.length) throw invalidIndex(idx);
    idx += con.length;
  }
  if (idx >= con.length) throw invalidIndex(idx);
  con[idx] = value;
}

function add(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setOwnField(con, key, value);
    return;
  }
  if (key === '-') {
    con.push(value);
    return;
  }
  let idx: number;
  try {
    idx = atoi(key);
  } catch (err) {
    throw wrap(`value was not a proper array index: '${key}'`, (err as Error).message);
  }
  const size = con.length + 1;
  if (idx >= size || idx < -size) throw invalidIndex(idx);
  if (idx < 0) idx += size;
  con.splice(idx, 0, value);
}

function remove(con: Container, key: string): void {
  if (!Array.isArray(con)) {
    if (!Object.hasOwn(con, key)) throw missing(`Unable to remove nonexistent key: ${key}`);
    delete con[key];
    return;
  }
  let idx = atoi(key);
  if (idx >= con.length || idx < -con.length) throw invalidIndex(idx);
  if (idx < 0) idx += con.length;
  con.splice(idx, 1);
}

/** The container holding the path's last token, or undefined when an intermediate token is missing. */
function findObject(doc: Container, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let con: unknown = doc;
  for (const part of split.slice(1, -1)) {
    let next: unknown;
    try {
      next = get(con as Container, decodeKey(part));
    } catch {
      return undefined;
    }
    if (next === undefined || next === null || typeof next !== 'object') return undefined;
    con = next;
  }
  return { con: con as Container, key: decodeKey(split[split.length - 1]) };
}

interface Operation {
  op?: unknown;
  path?: unknown;
  from?: unknown;
  value?: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function applyOperation(doc: Container, op: Operation): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const path = str(op.path);
  const hasValue = Object.hasOwn(op, 'value');
  switch (kind) {
    case 'add': {
      if (path === undefined) throw missing('add operation failed to decode path');
      const found = findObject(doc, path);
      if (!found) throw missing(`add operation does not apply: doc is missing path: ${JSON.stringify(path)}`);
      try {
        add(found.con, found.key, structuredClone(op.value ?? null));
      } catch (err) {
        throw wrap(`error in add for path: '${path}'`, (err as Error).message);
      }
      return;
    }
    case 'remove': {
      if (path === undefined) throw missing('remove operation failed to decode path');
      const found = findObject(doc, path);
      if (!found) throw missing(`remove operation does not apply: doc is missing path: ${JSON.stringify(path)}`);
      try {
        remove(found.con, found.key);
      } catch (err) {
        throw wrap(`error in remove for path: '${path}'`, (err as Error).message);
      }
      return;
    }
    case 'replace': {
      if (path === undefined) throw missing('replace operation failed to decode path');
      const found = findObject(doc, path);
      if (!found) throw missing(`replace operation does not apply: doc is missing path: ${path}`);
      try {
        get(found.con, found.key);
      } catch {
        throw missing(`replace operation does not apply: doc is missing key: ${path}`);
      }
      try {
        set(found.con, found.key, structuredClone(op.value ?? null));
      } catch (err) {
        throw wrap(`error in remove for path: '${path}'`, (err as Error).message);
      }
      return;
    }
    case 'move':
    case 'copy': {
      const from = str(op.from);
      if (from === undefined) throw missing(`${kind} operation failed to decode from`);
      const source = findObject(doc, from);
      if (!source) throw missing(`${kind} operation does not apply: doc is missing from path: ${from}`);
      let value: unknown;
      try {
        value = get(source.con, source.key);
        if (kind === 'move') remove(source.con, source.key);
      } catch (err) {
        throw wrap(kind === 'move' ? `error in move for path: '${source.key}'` : `error in copy for from: '${from}'`, (err as Error).message);
      }
      if (path === undefined) throw missing(`${kind} operation failed to decode path`);
      const target = findObject(doc, path);
      if (!target) throw missing(`${kind} operation does not apply: doc is missing destination path: ${path}`);
      try {
        add(target.con, target.key, kind === 'copy' ? structuredClone(value ?? null) : value);
      } catch (err) {
        throw wrap(kind === 'move' ? `error in move for path: '${path}'` : 'error while adding value during copy', (err as Error).message);
      }
      return;
    }
    case 'test': {
      if (path === undefined) throw missing('test operation failed to decode path');
      const found = findObject(doc, path);
      if (!found) throw missing(`test operation does not apply: is missing path: ${path}`);
      let value: unknown;
      try {
        value = get(found.con, found.key);
      } catch (err) {
        throw wrap(`error in test for path: '${path}'`, (err as Error).message);
      }
      const expected = hasValue ? op.value : undefined;
      if (value === undefined ? expected === undefined || expected === null : jsonEqual(value, expected)) return;
      throw new JsonPatchTestFailed(`testing value ${path} failed: test failed`);
    }
    default:
      throw new JsonPatchError(`Unexpected kind: ${kind}`);
  }
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

/**
 * Decodes a patch as json-patch's DecodePatch does: the bytes must be a JSON array of operation objects, else
 * encoding/json's error (`json: cannot unmarshal object into Go value of type jsonpatch.Patch`).
 */
export function decodeJsonPatch(bytes: Buffer): Operation[] {
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonPatchError(goJsonParseError(text));
  }
  const kindOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v);
  if (value === null) return [];
  if (!Array.isArray(value)) throw new JsonPatchError(`json: cannot unmarshal ${kindOf(value)} into Go value of type jsonpatch.Patch`);
  for (const op of value) {
    if (op !== null && !isObject(op)) throw new JsonPatchError(`json: cannot unmarshal ${kindOf(op)} into Go value of type jsonpatch.Operation`);
  }
  return value.map((op) => (op ?? {}) as Operation);
}

/** Applies decoded operations to a copy of `doc` and returns it; throws JsonPatchError with json-patch's text. */
export function applyWebhookPatch(doc: Record<string, unknown>, ops: readonly Operation[]): Record<string, unknown> {
  const copy = structuredClone(doc);
  for (const op of ops) applyOperation(copy, op);
  return copy;
}
