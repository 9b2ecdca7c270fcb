import type { Codec, ListArrayField, ListObject, WatchFraming } from '../../../core/contracts/codec.js';
import { errors } from '../../../core/contracts/api-error.js';
import { duplicateFields } from '../../../lib/codec/duplicate-fields.js';

/** Watch events as JSON lines `{"type":…,"object":…}\n`, with Content-Type application/json as kube sends them. */
const jsonLines: WatchFraming = {
  contentType: 'application/json',
  encodeEvent(type: string, object: object): Buffer {
    return Buffer.from(JSON.stringify({ type, object }) + '\n');
  },
};

/** `application/json`: every kind, request bodies and watch streams. kube's default wire format. */
export class JsonCodec implements Codec {
  readonly mediaType = 'application/json';
  readonly bodyMediaTypes = ['application/json'];
  readonly stream = jsonLines;

  encodes(): boolean {
    return true;
  }

  encode(object: object): string {
    return JSON.stringify(object);
  }

  /** The list's other fields, then its items (or rows) one by one: the bytes JSON.stringify gives, as they come last. */
  *encodeListPieces(list: ListObject, field: ListArrayField = 'items'): Iterable<string> {
    const { [field]: elements, ...rest } = list;
    const items = elements as unknown[];
    const head = JSON.stringify(rest);
    yield `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"${field}":[`;
    for (let i = 0; i < items.length; i++) yield (i ? ',' : '') + JSON.stringify(items[i]);
    yield ']}';
  }

  decode(raw: Buffer): unknown {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch (err) {
      throw errors.badRequest(`the object provided is unrecognized or malformed: ${(err as Error).message}`);
    }
  }

  duplicateFields(raw: Buffer): string[] {
    return duplicateFields(raw.toString('utf8'));
  }
}
