/**
 * A path element is one step of a field path (structured-merge-diff fieldpath.PathElement). It is handled as its
 * fieldsV1 key, which is also its canonical identity:
 *   `f:<name>`  a field or map key          `k:{"name":"a","port":80}`  an associative-list item by its keys (sorted)
 *   `v:<json>`  a set item by its value      `i:<n>`                     a list item by index (atomic lists)
 * SMD orders them field < key < value < index; keys field by field, values by value.Compare.
 */
import { goCompare } from '../../lib/go/strings.js';
import { goJSON, goJSONString, goNumber, goQuote } from '../../lib/go/go-values.js';
import { compareValues, isObject } from './json-value.js';

export type PathElement = string;
export type Path = readonly PathElement[];

export type ParsedPathElement =
  | { type: 'field'; name: string }
  | { type: 'key'; fields: [string, unknown][] }
  | { type: 'value'; value: unknown }
  | { type: 'index'; index: number };

export function fieldElement(name: string): PathElement {
  return 'f:' + name;
}

/** `fields` must be sorted by name (Go order). */
export function keyElement(fields: readonly (readonly [string, unknown])[]): PathElement {
  let s = 'k:{';
  for (let i = 0; i < fields.length; i++) s += (i ? ',' : '') + goJSONString(fields[i][0]) + ':' + goJSON(fields[i][1]);
  return s + '}';
}

export function valueElement(v: unknown): PathElement {
  return 'v:' + goJSON(v);
}

export function indexElement(i: number): PathElement {
  return 'i:' + i;
}

const parsed = new Map<string, ParsedPathElement>();

/** The parsed form of a canonical path element (cached: the same keys recur in every request). */
export function parsePathElement(pe: PathElement): ParsedPathElement {
  let p = parsed.get(pe);
  if (p) return p;
  const rest = pe.slice(2);
  switch (pe[0]) {
    case 'f':
      p = { type: 'field', name: rest };
      break;
    case 'k': {
      const o = JSON.parse(rest) as Record<string, unknown>;
      p = { type: 'key', fields: Object.keys(o).sort(goCompare).map((k) => [k, o[k]] as [string, unknown]) };
      break;
    }
    case 'v':
      p = { type: 'value', value: JSON.parse(rest) };
      break;
    default:
      p = { type: 'index', index: Number(rest) };
  }
  if (parsed.size > 100_000) parsed.clear();
  parsed.set(pe, p);
  return p;
}

export class PathElementError extends Error {}

const canonical = new Map<string, PathElement>();

/**
 * The canonical form of a fieldsV1 key as SMD's DeserializePathElement reads it: undefined for keys of an unknown
 * type (SMD drops those), PathElementError for malformed ones.
 */
export function canonicalPathElement(key: string): PathElement | undefined {
  if (key.length < 2) throw new PathElementError('key must be 2 characters long');
  if (key[1] !== ':') return undefined;
  if (key[0] === 'f') return key;
  let pe = canonical.get(key);
  if (pe === undefined) {
    pe = parseKey(key);
    if (pe === undefined) return undefined;
    if (canonical.size > 100_000) canonical.clear();
    canonical.set(key, pe);
  }
  return pe;
}

function parseKey(key: string): PathElement | undefined {
  const rest = key.slice(2);
  switch (key[0]) {
    case 'k': {
      let o: unknown;
      try {
        o = JSON.parse(rest);
      } catch (e) {
        throw new PathElementError(`parsing key as path element: ${(e as Error).message}`);
      }
      if (!isObject(o)) throw new PathElementError(`parsing key as path element: ${rest} is not an object`);
      return keyElement(Object.keys(o).sort(goCompare).map((k) => [k, o[k]] as const));
    }
    case 'v':
      try {
        return valueElement(JSON.parse(rest));
      } catch (e) {
        throw new PathElementError(`parsing key as path element: ${(e as Error).message}`);
      }
    case 'i':
      if (!/^[+-]?\d+$/.test(rest)) throw new PathElementError(`strconv.Atoi: parsing ${goQuote(rest)}: invalid syntax`);
      return indexElement(Number(rest));
  }
  return undefined;
}

const typeRank: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** SMD's PathElement.Compare. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a === b) return 0;
  const ra = typeRank[a[0]];
  const rb = typeRank[b[0]];
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === 0) return goCompare(a, b);
  const pa = parsePathElement(a);
  const pb = parsePathElement(b);
  if (pa.type === 'key' && pb.type === 'key') return compareKeys(pa.fields, pb.fields);
  if (pa.type === 'value' && pb.type === 'value') return compareValues(pa.value, pb.value);
  if (pa.type === 'index' && pb.type === 'index') return pa.index < pb.index ? -1 : pa.index > pb.index ? 1 : 0;
  return 0;
}

function compareKeys(a: [string, unknown][], b: [string, unknown][]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = goCompare(a[i][0], b[i][0]) || compareValues(a[i][1], b[i][1]);
    if (c !== 0) return c;
  }
}

/** value.ToString: how SMD prints a value inside a path. */
function valueString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(valueString).join(',') + ']';
  return Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${k}=${valueString(x)}`)
    .join('');
}

/** PathElement.String(): `.name`, `[name="a",port=80]`, `[="x"]`, `[3]`. */
export function pathElementString(pe: PathElement): string {
  if (pe[0] === 'f') return '.' + pe.slice(2);
  const p = parsePathElement(pe);
  if (p.type === 'key') return '[' + p.fields.map(([k, v]) => `${k}=${valueString(v)}`).join(',') + ']';
  if (p.type === 'value') return `[=${valueString(p.value)}]`;
  if (p.type === 'index') return `[${p.index}]`;
  return '.' + p.name;
}

/** Path.String(): `.spec.containers[name="nginx"].image`. */
export function pathString(path: Path): string {
  let s = '';
  for (const pe of path) s += pathElementString(pe);
  return s;
}
