/**
 * The codec benchmark's workload (bench/codecs.ts): the wire formats it compares, the widgets it lists, and an
 * independent check of how many items a list answer holds in each format.
 */
import cbor from 'cbor';
import { fieldNumbersAnnotation, generateProto, type CrdSource } from '../generators/proto/index.js';
import { expectStatus, type HttpsClient } from './https-client.js';
import type { StreamFormat } from './stream-frames.js';
import { installWidgetsCrd, waitForWidgetsServed, widget, widgetsCollectionPath } from './widgets.js';

export interface BenchFormat {
  name: string;
  /** What the client sends in Accept (for lists and watches alike, as client-go does). */
  accept: string;
  /** How its watch events are framed, and the Content-Type the watch response carries. */
  stream: StreamFormat;
  streamContentType: string;
}

export const benchFormats: BenchFormat[] = [
  { name: 'JSON', accept: 'application/json', stream: 'json', streamContentType: 'application/json' },
  { name: 'protobuf', accept: 'application/vnd.kubernetes.protobuf', stream: 'protobuf', streamContentType: 'application/vnd.kubernetes.protobuf;stream=watch' },
  { name: 'CBOR', accept: 'application/cbor', stream: 'cbor', streamContentType: 'application/cbor-seq' },
];

/** Items of a list answer, read without kapi's code: JSON.parse, node-cbor, or the protobuf wire format walked by hand. */
export function countItems(format: BenchFormat, body: Buffer): number {
  switch (format.stream) {
    case 'json':
      return (JSON.parse(body.toString('utf8')) as { items: unknown[] }).items.length;
    case 'cbor':
      return cborListItems(body);
    case 'protobuf':
      return protobufListItems(body);
  }
}

/** Kubernetes writes the self-described tag, then strings (map keys too) as byte strings: the list is read as a Map. */
function cborListItems(body: Buffer): number {
  const tagged = cbor.decodeFirstSync(body, { preferMap: true }) as { tag: number; value: Map<unknown, unknown> };
  for (const [key, value] of tagged.value) {
    const name = typeof key === 'string' ? key : Buffer.from(key as Uint8Array).toString('utf8');
    if (name === 'items') return (value as unknown[]).length;
  }
  throw new Error('CBOR list: no items');
}

/**
 * `k8s\0` + runtime.Unknown{raw = 2}, whose raw is a <Kind>List {metadata = 1, items = 2 (repeated)}: the number of
 * field-2 entries of the list message.
 */
function protobufListItems(body: Buffer): number {
  if (body.subarray(0, 4).toString('latin1') !== 'k8s\0') throw new Error('protobuf list: no k8s\\0 prefix');
  const raw = fields(body.subarray(4)).find((f) => f.field === 2)?.bytes;
  if (!raw) throw new Error('protobuf list: the envelope has no raw field');
  return fields(raw).filter((f) => f.field === 2).length;
}

function fields(buf: Buffer): { field: number; bytes?: Buffer }[] {
  const out: { field: number; bytes?: Buffer }[] = [];
  let pos = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = buf[pos++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  while (pos < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    switch (key & 7) {
      case 0:
        varint();
        out.push({ field });
        break;
      case 1:
        pos += 8;
        out.push({ field });
        break;
      case 2: {
        const len = varint();
        out.push({ field, bytes: buf.subarray(pos, pos + len) });
        pos += len;
        break;
      }
      case 5:
        pos += 4;
        out.push({ field });
        break;
      default:
        throw new Error(`protobuf list: wire type ${key & 7} at ${pos}`);
    }
  }
  return out;
}

/** A widget of the listed collection: labels, an annotation and a spec, like a typical small custom resource. */
function bulkWidget(i: number): Record<string, unknown> {
  const w = widget(`bulk-${String(i).padStart(5, '0')}`) as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
  w.metadata['namespace'] = 'bulk';
  w.metadata['labels'] = { app: 'bench', tier: i % 2 ? 'web' : 'db', shard: String(i % 16) };
  w.metadata['annotations'] = { 'bench.example.com/owner': 'team-a', 'bench.example.com/index': String(i) };
  w.spec = { color: ['blue', 'green', 'red'][i % 3], replicas: i % 7 };
  return w;
}

/** The CRD with the protobuf field numbers `kapi gen proto --write-crd` would record, so kapi serves it as protobuf. */
function withFieldNumbers(crd: Record<string, unknown>): Record<string, unknown> {
  const { annotation } = generateProto(crd as unknown as CrdSource);
  const metadata = (crd['metadata'] ?? {}) as { annotations?: Record<string, string> };
  return { ...crd, metadata: { ...metadata, annotations: { ...metadata.annotations, [fieldNumbersAnnotation]: annotation } } };
}

/**
 * The widgets CRD with its protobuf field numbers, namespace `bulk` with `count` widgets, and w1 in `default`
 * (409s are fine on a re-used data dir).
 */
export async function installCodecWidgets(c: HttpsClient, count: number): Promise<void> {
  await installWidgetsCrd(c, withFieldNumbers);
  await waitForWidgetsServed(c);
  expectStatus(await c.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bulk' } }), [201, 409], 'create namespace bulk');
  expectStatus(await c.request('POST', widgetsCollectionPath, widget('w1')), [201, 409], 'create widget w1');
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const res = await c.request('POST', '/apis/example.com/v1/namespaces/bulk/widgets', bulkWidget(i));
      expectStatus(res, [201, 409], `create widget bulk-${i}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, lane));
}
