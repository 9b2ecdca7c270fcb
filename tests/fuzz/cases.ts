/**
 * The fuzz cases, each built from its own PRNG seeded by (seed, group, index) so that any one case is rebuilt alone:
 * bodies per codec over the write paths (create, update, status, merge / JSON / strategic merge patches, server-side
 * apply), query strings on list, get, watch and delete, and URL paths.
 */
import { prng } from '../helpers/seeded-random.js';
import { contentTypes, encode, jsonText, mutateBytes, type CodecName } from './encode.js';
import { mutateValue, randomValue, setKey } from './mutate.js';
import { chance, int, oddString, percentEncode, pick, type Rand } from './random.js';
import { fuzzNamespace, kinds, scratchNamespace, type FuzzKind } from './seeds.js';

export type FuzzGroup = CodecName | 'query' | 'path';

export interface FuzzCase {
  group: FuzzGroup;
  index: number;
  /** What the case does, e.g. `widget update`. */
  label: string;
  method: string;
  path: string;
  contentType?: string;
  /** The body, given the target's current resourceVersion (used by half the updates). */
  body?: (currentResourceVersion: string) => Buffer;
  /** A write to this kind's fixed target: a non-2xx answer must leave it unchanged. */
  target?: FuzzKind;
  /** A create of this name: after a non-2xx answer the name must not exist. */
  creates?: { kind: FuzzKind; name: string };
  /** A watch: the answer streams, so only the time to its headers counts and it is cut after a moment. */
  stream?: boolean;
}

const writePaths: Record<CodecName, readonly string[]> = {
  json: ['create', 'update', 'status', 'merge-patch', 'json-patch', 'strategic-merge-patch', 'apply'],
  yaml: ['create', 'update', 'status', 'apply'],
  cbor: ['create', 'update', 'status', 'apply'],
  protobuf: ['create', 'update', 'status'],
};

function caseRandom(seed: number, group: FuzzGroup, index: number): Rand {
  let h = seed >>> 0;
  for (const c of `${group}:${index}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return prng(h);
}

const itemPath = (kind: FuzzKind, name: string) => `${kind.collection}/${name}`;
const deepCopy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A JSON patch: operations on the target's fields, some made up, the list then mutated. */
function jsonPatch(r: Rand, seed: any): unknown {
  const paths = ['/metadata/labels/fuzz', '/metadata/labels', '/metadata/name', '/metadata/resourceVersion', '/spec', '/spec/color', '/spec/replicas', '/webhooks/0/name', '/webhooks/-', '/spec/versions/0/name', '/a/~2', '/~1', '', '/', '/spec/0', '/metadata/finalizers/-', '/status'];
  const ops = Array.from({ length: 1 + int(r, 4) }, () => {
    const op: Record<string, unknown> = { op: pick(r, ['add', 'remove', 'replace', 'move', 'copy', 'test', 'invalid']), path: pick(r, paths) };
    if (chance(r, 0.7)) op['value'] = chance(r, 0.5) ? deepCopy(seed.spec ?? seed.webhooks ?? 'x') : randomValue(r);
    if (chance(r, 0.3)) op['from'] = pick(r, paths);
    return op;
  });
  return chance(r, 0.8) ? mutateValue(r, ops) : ops;
}

/** A merge or strategic merge patch: part of the object, some fields nulled, strategic directives for the latter. */
function mergePatch(r: Rand, seed: any, strategic: boolean): unknown {
  const parts: any[] = [{ metadata: { labels: { fuzz: 'x', tier: null } } }, { spec: seed.spec ?? null }, seed, { metadata: { annotations: { note: null } } }, { webhooks: seed.webhooks ?? [] }];
  const patch = deepCopy(pick(r, parts));
  if (strategic && chance(r, 0.5)) {
    const directive = pick(r, [
      ['$patch', pick(r, ['delete', 'replace', 'merge', 'bogus'])],
      ['$retainKeys', ['spec', 'x']],
      ['$setElementOrder/webhooks', [{ name: 'v.fuzz.example.com' }, { name: 'missing' }]],
      ['$deleteFromPrimitiveList/finalizers', ['kubernetes']],
      ['$setElementOrder/finalizers', 'not a list'],
    ] as const);
    setKey(patch, directive[0], directive[1]);
  }
  return chance(r, 0.85) ? mutateValue(r, patch) : patch;
}

function bodyCase(seed: number, codec: CodecName, index: number): FuzzCase {
  const r = caseRandom(seed, codec, index);
  const candidates = kinds.filter((k) => codec !== 'protobuf' || k.protobuf);
  const write = pick(r, writePaths[codec]);
  const kind = pick(r, write === 'status' ? candidates.filter((k) => k.hasStatus) : candidates);
  const base = { group: codec, index, label: `${kind.name} ${write}` } as const;
  const garble = (bytes: Buffer) => (chance(r, codec === 'protobuf' ? 0.7 : 0.2) ? mutateBytes(r, codec, bytes) : bytes);
  const object = (name: string, rv?: string) => {
    const seedObject = kind.seed(name);
    if (rv !== undefined) seedObject.metadata.resourceVersion = rv;
    const value = chance(r, codec === 'protobuf' ? 0.5 : 0.9) ? mutateValue(r, deepCopy(seedObject)) : seedObject;
    return garble(encode(r, codec, value, seedObject, kind.protobuf));
  };
  switch (write) {
    case 'create': {
      const name = kind.name === 'crd' ? `fz${codec}${index}s.fuzz.example.com` : `fz-${codec}-${index}`;
      const body = object(name);
      return { ...base, method: 'POST', path: kind.collection, contentType: contentTypes[codec], body: () => body, creates: { kind, name } };
    }
    case 'update':
    case 'status': {
      const withCurrent = chance(r, 0.5);
      const otherRv = pick(r, [undefined, '1', '', 'abc', '99999999999']);
      return {
        ...base,
        method: 'PUT',
        path: itemPath(kind, kind.target) + (write === 'status' ? '/status' : ''),
        contentType: contentTypes[codec],
        body: (rv) => object(kind.target, withCurrent ? rv : otherRv),
        target: kind,
      };
    }
    case 'apply': {
      const value = mutateValue(r, deepCopy(kind.seed(kind.target)));
      const body = codec === 'cbor' ? encode(r, 'cbor', value, kind.seed(kind.target)) : encode(r, codec, value);
      const bytes = garble(body);
      const query = `?fieldManager=fuzz${chance(r, 0.3) ? '&force=true' : ''}`;
      const contentType = codec === 'cbor' ? 'application/apply-patch+cbor' : 'application/apply-patch+yaml';
      return { ...base, method: 'PATCH', path: itemPath(kind, kind.target) + query, contentType, body: () => bytes, target: kind };
    }
    default: {
      const seedObject = kind.seed(kind.target);
      const patch = write === 'json-patch' ? jsonPatch(r, seedObject) : mergePatch(r, seedObject, write === 'strategic-merge-patch');
      const bytes = garble(Buffer.from(jsonText(patch)));
      const status = kind.hasStatus && chance(r, 0.2) ? '/status' : '';
      return { ...base, method: 'PATCH', path: itemPath(kind, kind.target) + status, contentType: `application/${write}+json`, body: () => bytes, target: kind };
    }
  }
}

const widgets = `/apis/example.com/v1/namespaces/${fuzzNamespace}/widgets`;
const scratchWidgets = `/apis/example.com/v1/namespaces/${scratchNamespace}/widgets`;

const params: Record<string, readonly string[]> = {
  labelSelector: ['tier=gold', 'tier in (gold,silver)', 'tier notin (a)', '!tier', 'tier', 'a!=b,c', 'a in (b', 'a in ()', 'a==b', '=b', 'a=', '(', 'a,,b', 'x'.repeat(64) + '=v', 'a=' + 'v'.repeat(64), 'é=1', 'a b=c'],
  fieldSelector: ['metadata.name=fuzz-target', 'metadata.namespace!=x', 'metadata.name==a,metadata.name!=b', 'spec.color=blue', 'status.phase=Active', 'metadata.name', 'a=b=c', '=', 'metadata.name in (a)', 'metadata.name=' + 'n'.repeat(300)],
  limit: ['1', '0', '-1', '500', '2147483648', '9223372036854775807', '9223372036854775808', '1.5', '1e3', 'abc', ''],
  continue: ['', 'abc', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJhIn0', 'eyJ2IjoieCJ9', '%%%', Buffer.from('{"v":"meta.k8s.io/v1","rv":-1,"start":"\\u0000"}').toString('base64')],
  resourceVersion: ['0', '1', '', '-1', 'abc', '9223372036854775807', '18446744073709551616', '1.5'],
  resourceVersionMatch: ['NotOlderThan', 'Exact', 'exact', '', 'bogus'],
  timeoutSeconds: ['1', '0', '-1', 'abc', '1e2', '9223372036854775808'],
  watch: ['true', '1', 'false', '0', 'yes', ''],
  allowWatchBookmarks: ['true', 'false', 'x'],
  sendInitialEvents: ['true', 'false', 'x'],
  dryRun: ['All', 'all', '', 'None', 'All,All'],
  fieldManager: ['fuzz', '', 'f'.repeat(200), 'é', '\u0000'],
  fieldValidation: ['Strict', 'Warn', 'Ignore', 'strict', ''],
  propagationPolicy: ['Foreground', 'Background', 'Orphan', 'orphan', ''],
  gracePeriodSeconds: ['0', '-1', '30', 'abc', '9223372036854775808'],
  orphanDependents: ['true', 'false', 'x'],
  pretty: ['true', 'x'],
  force: ['true', 'x'],
};
const junk = ['', '%', '%zz', '%00', '%ff%fe', '%C0%AF', '&', '=', '==', 'a'.repeat(10_000), '%E6%97%A5', 'null', '[]', '{}'];

function queryValue(r: Rand, name: string): string {
  const valid = params[name];
  if (valid && chance(r, 0.6)) return percentEncode(pick(r, valid));
  if (chance(r, 0.5)) return pick(r, junk);
  return chance(r, 0.5) ? percentEncode(oddString(r)) : oddString(r).replace(/[^\x21-\x7e]|[#%&+=]/g, (c) => (c.charCodeAt(0) < 0x100 ? c : '%'));
}

function queryCase(seed: number, index: number): FuzzCase {
  const r = caseRandom(seed, 'query', index);
  const bases: [string, string, string][] = [
    ['list', 'GET', widgets],
    ['list', 'GET', '/apis/example.com/v1/widgets'],
    ['list', 'GET', pick(r, kinds).collection],
    ['get', 'GET', `${widgets}/fuzz-target`],
    ['get', 'GET', (() => { const k = pick(r, kinds); return `${k.collection}/${k.target}`; })()],
    ['watch', 'GET', `${widgets}?watch=true`],
    ['watch', 'GET', `${pick(r, kinds).collection}?watch=1`],
    ['watch', 'GET', `/apis/example.com/v1/watch/namespaces/${fuzzNamespace}/widgets`],
    ['delete', 'DELETE', `${scratchWidgets}/gone-${index}`],
    ['deletecollection', 'DELETE', scratchWidgets],
  ];
  const [what, method, base] = pick(r, bases);
  const query: string[] = [];
  for (let n = 1 + int(r, 5); n > 0; n--) {
    const name = chance(r, 0.9) ? pick(r, Object.keys(params)) : percentEncode(oddString(r, 6));
    const value = queryValue(r, name);
    query.push(chance(r, 0.05) ? name : `${name}=${value}`);
    if (chance(r, 0.1)) query.push(`${name}=${queryValue(r, name)}`);
  }
  // A bare `watch` parameter opens a watch too.
  const stream = what === 'watch' || query.some((q) => q === 'watch' || q.startsWith('watch='));
  if (stream && chance(r, 0.85)) query.push('timeoutSeconds=1');
  const path = base + (base.includes('?') ? '&' : '?') + query.join('&');
  return { group: 'query', index, label: `${what} query`, method, path, stream };
}

const pathBases = [
  '/', '/api', '/api/v1', '/apis', '/apis/example.com', '/apis/example.com/v1', widgets, `${widgets}/fuzz-target`, `${widgets}/fuzz-target/status`,
  `${widgets}/fuzz-target/scale`, `/api/v1/namespaces/${fuzzNamespace}`, `/api/v1/namespaces/${fuzzNamespace}/status`, `/api/v1/namespaces/${fuzzNamespace}/finalize`,
  ...kinds.map((k) => `${k.collection}/${k.target}`), '/openapi/v2', '/openapi/v3', '/openapi/v3/apis/example.com/v1', '/version', '/healthz', '/readyz/ping',
  '/livez', '/metrics', '/apis/example.com/v1/watch/namespaces/fuzz/widgets', '/apis/apiextensions.k8s.io/v1', '/apis/admissionregistration.k8s.io/v1',
];
const scratchBases = [scratchWidgets, `${scratchWidgets}/w`, `${scratchWidgets}/w/status`, `/api/v1/namespaces/${scratchNamespace}/widgets`];
const segmentJunk = ['..', '.', '', '%2F', '%2f', '%2e%2e', '%2E', '%00', '%', '%zz', '%C0%AF', '%E6%97%A5', '%F0%9F%92%A5', '%ED%A0%80', 'é', '~', '*', '@', ':', ';x=1', 'namespaces', 'watch', 'status', 'v1', 'api'];

function pathCase(seed: number, index: number): FuzzCase {
  const r = caseRandom(seed, 'path', index);
  const write = chance(r, 0.25);
  const base = write ? pick(r, scratchBases) : pick(r, pathBases);
  const segments = base.split('/');
  for (let n = 1 + int(r, 3); n > 0; n--) {
    const i = 1 + int(r, Math.max(1, segments.length - 1));
    switch (int(r, 5)) {
      case 0: segments[i] = pick(r, segmentJunk); break;
      case 1: segments.splice(i, 0, pick(r, segmentJunk)); break;
      case 2: segments[i] = percentEncode(oddString(r)); break;
      case 3: segments[i] = pick(r, ['a', '%41', 'é']).repeat(pick(r, [63, 64, 253, 254, 1000, 8000, 20_000])); break;
      default: segments.splice(i, 1); break;
    }
  }
  let path = segments.join('/') + pick(r, ['', '', '/', '?', '?x', '#frag', '//']);
  if (!path.startsWith('/')) path = `/${path}`;
  const method = write ? pick(r, ['POST', 'PUT', 'PATCH', 'DELETE']) : pick(r, ['GET', 'GET', 'GET', 'HEAD', 'OPTIONS']);
  const body = method === 'DELETE' ? undefined : Buffer.from(method === 'PATCH' ? '{"metadata":{"labels":{"a":"b"}}}' : JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} }));
  const contentType = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  return { group: 'path', index, label: `${method} path`, method, path, ...(body ? { body: () => body, contentType } : {}), stream: path.includes('watch') };
}

/** Case `index` of `group` for `seed`. */
export function fuzzCase(seed: number, group: FuzzGroup, index: number): FuzzCase {
  if (group === 'query') return queryCase(seed, index);
  if (group === 'path') return pathCase(seed, index);
  return bodyCase(seed, group, index);
}
