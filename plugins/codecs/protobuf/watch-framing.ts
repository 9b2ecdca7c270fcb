import type { WatchFraming } from '../../../core/contracts/codec.js';
import { KubeTypes } from './schema.js';
import { encodeMessage } from './wire-writer.js';

/**
 * kube-apiserver's protobuf watch stream: every event is a frame of a 4-byte big-endian length and a bare
 * `meta.v1.WatchEvent` (the RawSerializer writes no magic and no envelope), whose `object.raw` holds the object as
 * the embedded encoder writes it: magic + `runtime.Unknown`. ERROR events carry a Status, BOOKMARK ones the kind
 * with only its resourceVersion.
 */
export function protobufWatchFraming(encodeObject: (object: object) => Buffer): WatchFraming {
  return {
    contentType: 'application/vnd.kubernetes.protobuf;stream=watch',
    encodeEvent(type: string, object: object): Buffer {
      const raw = encodeObject(object);
      const event = encodeMessage(KubeTypes.WatchEvent, { type, object: { raw } }, raw.length + 32);
      const frame = Buffer.allocUnsafe(4 + event.length);
      frame.writeUInt32BE(event.length, 0);
      frame.set(event, 4);
      return frame;
    },
  };
}
