/**
 * The fuzzer's codecs: a (mutated) value written as JSON text (int64 edges, NaN and duplicated keys written raw), YAML
 * (plus YAML-only text: alias bombs, tabs, duplicated keys), CBOR (node-cbor, with or without the self-described tag)
 * or Kubernetes protobuf (kapi's .proto texts read by protobufjs, the object in the magic + runtime.Unknown envelope);
 * and mutations of the bytes: bit flips, truncation, inserted and overwritten bytes, and length fields.
 */
import cbor from 'cbor';
import protobuf from 'protobufjs';
import YAML from 'yaml';
import { admissionregistrationV1Proto } from '../../plugins/codecs/protobuf/protos/admissionregistration-v1.js';
import { apiextensionsV1Proto } from '../../plugins/codecs/protobuf/protos/apiextensions-v1.js';
import { coreV1Proto } from '../../plugins/codecs/protobuf/protos/core-v1.js';
import { metaV1Proto } from '../../plugins/codecs/protobuf/protos/meta-v1.js';
import { runtimeProto } from '../../plugins/codecs/protobuf/protos/runtime.js';
import { duplicates, Nested } from './mutate.js';
import { chance, int, pick, randomBytes, type Rand } from './random.js';

export type CodecName = 'json' | 'yaml' | 'cbor' | 'protobuf';
export const codecNames: readonly CodecName[] = ['json', 'yaml', 'cbor', 'protobuf'];

export const contentTypes: Record<CodecName, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
  cbor: 'application/cbor',
  protobuf: 'application/vnd.kubernetes.protobuf',
};

/** JSON text of a mutated value; bigints, NaN and infinities are written as raw numbers, duplicated keys repeated. */
export function jsonText(value: unknown): string {
  let dup = 0;
  const nested: string[] = [];
  const text = JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (typeof v === 'bigint') return `\u0001raw:${v}\u0001`;
    if (v instanceof Nested) {
      const [open, close] = v.asArrays ? ['[', ']'] : ['{"a":', '}'];
      nested.push(open.repeat(v.depth) + jsonText(v.inner) + close.repeat(v.depth));
      return `\u0001nest:${nested.length - 1}\u0001`;
    }
    if (typeof v === 'number' && !Number.isFinite(v)) return `\u0001raw:${Number.isNaN(v) ? 'NaN' : v > 0 ? '1e400' : '-1e400'}\u0001`;
    const extra = v !== null && typeof v === 'object' ? ((v as any)[duplicates] as [string, unknown][] | undefined) : undefined;
    if (!extra) return v;
    const copy: Record<string, unknown> = {};
    for (const k of Object.keys(v as object)) Object.defineProperty(copy, k, { value: (v as any)[k], enumerable: true });
    for (const [k, dv] of extra) copy[`\u0001dup${dup++}\u0001${k}`] = dv;
    return copy;
  });
  return (text ?? 'null')
    .replace(/"\\u0001raw:([^"\\]*)\\u0001"/g, '$1')
    .replace(/"\\u0001dup\d+\\u0001/g, '"')
    .replace(/"\\u0001nest:(\d+)\\u0001"/g, (_m, i: string) => nested[Number(i)]!);
}

/** A YAML text the YAML encoder cannot write: aliases expanding to a billion nodes, tabs, duplicated keys. */
function oddYaml(r: Rand, seedText: string): string {
  switch (int(r, 4)) {
    case 0: {
      const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
      return `${seedText}\n${lines.join('\n')}\n`;
    }
    case 1:
      return seedText.replace(/\n {2}/g, '\n\t');
    case 2:
      return `${seedText}\nkind: Other\nkind: Again\n`;
    default:
      return `%YAML 1.1\n--- !!map\n${seedText}\n---\nsecond: document\n`;
  }
}

function containsNested(v: unknown, depth = 0): boolean {
  if (v instanceof Nested) return true;
  if (v === null || typeof v !== 'object' || depth > 60) return false;
  return Object.values(v).some((x) => containsNested(x, depth + 1));
}

function yamlText(r: Rand, value: unknown): string {
  // Deep nesting is written as JSON (JSON is YAML): the yaml library's writer recurses.
  if (containsNested(value)) return jsonText(value);
  try {
    const text = YAML.stringify(value, { aliasDuplicateObjects: false });
    return chance(r, 0.15) ? oddYaml(r, text) : text;
  } catch {
    // Values the yaml library cannot write (very deep nesting): JSON is YAML too.
    return jsonText(value);
  }
}

/** node-cbor's hook for custom types: the nesting heads written at once, then the inner value. */
Object.defineProperty(Nested.prototype, 'encodeCBOR', {
  value(this: Nested, encoder: { push(b: Buffer): boolean; pushAny(v: unknown): boolean }) {
    const head = this.asArrays ? Buffer.from([0x81]) : Buffer.from([0xa1, 0x61, 0x61]);
    return encoder.push(Buffer.alloc(this.depth * head.length, head)) && encoder.pushAny(this.inner);
  },
});

function cborBytes(r: Rand, value: unknown): Buffer {
  // highWaterMark (a stream option the types omit) lets one synchronous encode write bodies past 16 KiB.
  const data = cbor.encodeOne(value, { highWaterMark: 64 * 1024 * 1024 } as object);
  return chance(r, 0.5) ? Buffer.concat([Buffer.from([0xd9, 0xd9, 0xf7]), data]) : data;
}

const protoRoot = new protobuf.Root();
for (const text of [runtimeProto, metaV1Proto, coreV1Proto, apiextensionsV1Proto, admissionregistrationV1Proto]) protobuf.parse(text, protoRoot, { keepCase: true });
protoRoot.resolveAll();
const Unknown = protoRoot.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');

/** The JSON shape of an object in the shape of its protobuf message (field names that differ). */
function protoShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(protoShape);
  if (value instanceof Nested) return protoShape(value.inner);
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k === 'webhooks' ? 'Webhooks' : k.startsWith('x-kubernetes-') ? `xKubernetes${k.slice(13).replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}` : k;
    out[key] = protoShape(v);
  }
  return out;
}

/** magic + runtime.Unknown{typeMeta, raw} of `value` as the message `type`; the seed's encoding if protobufjs refuses the value. */
function protobufBytes(value: any, seed: any, type: string): Buffer {
  const message = protoRoot.lookupType(type);
  let raw: Uint8Array;
  try {
    raw = message.encode(message.fromObject(protoShape(value) as object)).finish();
  } catch {
    raw = message.encode(message.fromObject(protoShape(seed) as object)).finish();
  }
  const typeMeta = { apiVersion: String(value?.apiVersion ?? seed.apiVersion), kind: String(value?.kind ?? seed.kind) };
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), Unknown.encode({ typeMeta, raw }).finish()]);
}

/** A value written in a codec. `protobufType` and `seed` are needed for protobuf. */
export function encode(r: Rand, codec: CodecName, value: unknown, seed?: unknown, protobufType?: string): Buffer {
  switch (codec) {
    case 'json':
      return Buffer.from(jsonText(value));
    case 'yaml':
      return Buffer.from(yamlText(r, value));
    case 'cbor':
      try {
        return cborBytes(r, value);
      } catch {
        return cborBytes(r, seed);
      }
    case 'protobuf':
      return protobufBytes(value, seed, protobufType!);
  }
}

/** A multi-byte varint or CBOR head announcing far more bytes than follow. */
const hugeLengths = [Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])];
const cborHeads = [Buffer.from([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), Buffer.from([0x9f]), Buffer.from([0xbf]), Buffer.from([0xd9, 0xd9, 0xf7]), Buffer.from([0xc2, 0x40]), Buffer.from([0xff]), Buffer.from([0xfb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0]), Buffer.from([0x7b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])];

/** One byte-level mutation of an encoded body (a copy). */
export function mutateBytes(r: Rand, codec: CodecName, input: Buffer): Buffer {
  const b = Buffer.from(input);
  const at = (extra = 0) => int(r, b.length + extra);
  switch (int(r, 6)) {
    case 0:
      for (let n = 1 + int(r, 8); n > 0 && b.length > 0; n--) b[at()]! ^= 1 << int(r, 8);
      return b;
    case 1:
      return b.subarray(0, at());
    case 2: {
      const i = at(1);
      return Buffer.concat([b.subarray(0, i), randomBytes(r, 1 + int(r, 16)), b.subarray(i)]);
    }
    case 3: {
      const i = at(1);
      const insert = codec === 'cbor' ? pick(r, cborHeads) : pick(r, hugeLengths);
      return Buffer.concat([b.subarray(0, i), insert, b.subarray(i)]);
    }
    case 4: {
      // a length field: the byte after a length-delimited protobuf tag (wire type 2), or a CBOR length head
      const candidates: number[] = [];
      for (let i = 0; i + 1 < b.length; i++) if ((codec === 'protobuf' && (b[i]! & 7) === 2) || (codec === 'cbor' && b[i]! >> 5 >= 2 && b[i]! >> 5 <= 5)) candidates.push(i + 1);
      if (candidates.length === 0) return b.subarray(0, at());
      const i = pick(r, candidates);
      if (chance(r, 0.5)) {
        b[i] = pick(r, [0, 1, 0x7f, 0xff, int(r, 256)]);
        return b;
      }
      return Buffer.concat([b.subarray(0, i), pick(r, hugeLengths), b.subarray(i + 1)]);
    }
    default: {
      const i = at();
      return Buffer.concat([b.subarray(0, i), b.subarray(i, i + 1 + int(r, 64)), b.subarray(i)]);
    }
  }
}
