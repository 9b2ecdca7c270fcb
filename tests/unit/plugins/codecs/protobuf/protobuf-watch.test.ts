// The protobuf watch framing, read back frame by frame with protobufjs reflection of kube's WatchEvent.
import test from 'ava';
import protobuf from 'protobufjs';
import { KubeProtobufCodec, unwrapKubeProtobuf } from '../../../../../plugins/codecs/protobuf/index.js';
import { coreV1Proto } from '../../../../../plugins/codecs/protobuf/protos/core-v1.js';
import { metaV1Proto } from '../../../../../plugins/codecs/protobuf/protos/meta-v1.js';
import { runtimeProto } from '../../../../../plugins/codecs/protobuf/protos/runtime.js';

const root = new protobuf.Root();
for (const text of [runtimeProto, metaV1Proto, coreV1Proto]) protobuf.parse(text, root, { keepCase: true });
root.resolveAll();
const WatchEvent = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent');
const Namespace = root.lookupType('k8s.io.api.core.v1.Namespace');
const Status = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.Status');

/** Splits a stream into frames: 4-byte big-endian length, then that many bytes. */
function frames(stream: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < stream.length) {
    const len = stream.readUInt32BE(pos);
    out.push(stream.subarray(pos + 4, pos + 4 + len));
    pos += 4 + len;
  }
  if (pos !== stream.length) throw new Error('stream ends inside a frame');
  return out;
}

const codec = new KubeProtobufCodec();
const ns = (name: string, rv: string) => ({ kind: 'Namespace', apiVersion: 'v1', metadata: { name, resourceVersion: rv }, spec: {}, status: { phase: 'Active' } });

test('each event is a length-prefixed bare WatchEvent whose object.raw is the enveloped object', (t) => {
  const framing = codec.stream!;
  t.is(framing.contentType, 'application/vnd.kubernetes.protobuf;stream=watch');
  const gone = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
  const stream = Buffer.concat([
    framing.encodeEvent('ADDED', ns('a', '2')),
    framing.encodeEvent('MODIFIED', ns('a', '3')),
    framing.encodeEvent('BOOKMARK', { kind: 'Namespace', apiVersion: 'v1', metadata: { resourceVersion: '4', annotations: { 'k8s.io/initial-events-end': 'true' } } }),
    framing.encodeEvent('DELETED', ns('a', '5')),
    framing.encodeEvent('ERROR', gone),
  ]);
  const events = frames(stream).map((f) => {
    t.not(f.subarray(0, 4).toString('latin1'), 'k8s\0', 'the WatchEvent itself has no magic prefix');
    return WatchEvent.decode(f) as unknown as { type: string; object: { raw: Uint8Array } };
  });
  t.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'BOOKMARK', 'DELETED', 'ERROR']);
  for (const e of events.slice(0, 4)) {
    const env = unwrapKubeProtobuf(e.object.raw);
    t.deepEqual([env.apiVersion, env.kind], ['v1', 'Namespace']);
  }
  const modified = Namespace.toObject(Namespace.decode(unwrapKubeProtobuf(events[1].object.raw).raw)) as { metadata: { name: string; resourceVersion: string } };
  t.deepEqual([modified.metadata.name, modified.metadata.resourceVersion], ['a', '3']);
  const bookmark = codec.decode(Buffer.from(events[2].object.raw), { apiVersion: 'v1', kind: 'Namespace' }) as { metadata: Record<string, unknown> };
  t.deepEqual(bookmark.metadata, { resourceVersion: '4', creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } });
  const err = unwrapKubeProtobuf(events[4].object.raw);
  t.deepEqual([err.apiVersion, err.kind], ['v1', 'Status']);
  t.like(Status.toObject(Status.decode(err.raw)), { status: 'Failure', reason: 'Expired', code: 410 });
});

test('a frame holds exactly one event, however large', (t) => {
  const big = ns('big', '7');
  (big.metadata as Record<string, unknown>).annotations = { blob: 'x'.repeat(200_000) };
  const frame = codec.stream!.encodeEvent('ADDED', big);
  t.is(frame.readUInt32BE(0), frame.length - 4);
  t.is(frames(frame).length, 1);
});
