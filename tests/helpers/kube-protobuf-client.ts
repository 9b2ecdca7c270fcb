/**
 * A Kubernetes protobuf client for tests, independent of kapi's codec: protobufjs reads a generated .proto text next
 * to minimal kube messages written here from Kubernetes' own .proto files (runtime.Unknown, RawExtension, meta/v1
 * ObjectMeta/ListMeta/WatchEvent, intstr.IntOrString), and the envelope and watch framing are done by hand.
 */
import protobuf from 'protobufjs';

const runtimeProto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.runtime;
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2; optional string contentEncoding = 3; optional string contentType = 4; }
message RawExtension { optional bytes raw = 1; }
`;
const metaV1Proto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string uid = 5;
  optional string resourceVersion = 6; optional int64 generation = 7; optional Time creationTimestamp = 8;
  map<string, string> labels = 11; map<string, string> annotations = 12;
}
message ListMeta { optional string selfLink = 1; optional string resourceVersion = 2; optional string continue = 3; optional int64 remainingItemCount = 4; }
message WatchEvent { optional string type = 1; optional k8s.io.apimachinery.pkg.runtime.RawExtension object = 2; }
`;
const intstrProto = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.util.intstr;
message IntOrString { optional int64 type = 1; optional int32 intVal = 2; optional string strVal = 3; }
`;

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

export class KubeProtobufClient {
  readonly root = new protobuf.Root();
  private readonly Unknown: protobuf.Type;
  private readonly WatchEvent: protobuf.Type;

  /** `generatedProto`: the text `kapi gen proto` wrote; `pkg`: its package. */
  constructor(
    generatedProto: string,
    private readonly pkg: string,
  ) {
    for (const text of [runtimeProto, metaV1Proto, intstrProto, generatedProto]) protobuf.parse(text, this.root, { keepCase: true });
    this.root.resolveAll();
    this.Unknown = this.root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
    this.WatchEvent = this.root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent');
  }

  type(name: string): protobuf.Type {
    return this.root.lookupType(`${this.pkg}.${name}`);
  }

  /** magic + runtime.Unknown{typeMeta, raw}, the message built from a plain object of the generated type. */
  encode(apiVersion: string, kind: string, message: object): Buffer {
    const type = this.type(kind);
    const raw = type.encode(type.fromObject(message)).finish();
    return Buffer.concat([magic, this.Unknown.encode({ typeMeta: { apiVersion, kind }, raw }).finish()]);
  }

  /** Checks the magic prefix and reads the envelope. */
  unwrap(bytes: Uint8Array): Envelope {
    if (!Buffer.from(bytes.subarray(0, 4)).equals(magic)) throw new Error(`no k8s\\0 prefix: ${Buffer.from(bytes.subarray(0, 16)).toString('hex')}`);
    const u = this.Unknown.toObject(this.Unknown.decode(bytes.subarray(4)), { defaults: true }) as { typeMeta: { apiVersion: string; kind: string }; raw: Uint8Array };
    return { apiVersion: u.typeMeta.apiVersion, kind: u.typeMeta.kind, raw: u.raw };
  }

  /** An enveloped object as a plain object of its generated type (int64 as numbers, bytes as Buffers). */
  decode(bytes: Uint8Array): { apiVersion: string; kind: string; message: any } {
    const e = this.unwrap(bytes);
    const type = this.type(e.kind);
    return { apiVersion: e.apiVersion, kind: e.kind, message: type.toObject(type.decode(e.raw), { longs: Number }) };
  }

  /** Splits a protobuf watch stream (4-byte big-endian length + meta.v1.WatchEvent) into events; returns the rest. */
  readFrames(buffer: Buffer): { events: { type: string; object: Uint8Array }[]; rest: Buffer } {
    const events: { type: string; object: Uint8Array }[] = [];
    let pos = 0;
    while (buffer.length - pos >= 4) {
      const len = buffer.readUInt32BE(pos);
      if (buffer.length - pos - 4 < len) break;
      const e = this.WatchEvent.toObject(this.WatchEvent.decode(buffer.subarray(pos + 4, pos + 4 + len))) as { type: string; object: { raw: Uint8Array } };
      events.push({ type: e.type, object: e.object.raw });
      pos += 4 + len;
    }
    return { events, rest: buffer.subarray(pos) };
  }
}
