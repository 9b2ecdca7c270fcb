import type { Codec, ListArrayField, ListObject, TypeMeta, WatchFraming } from '../../../core/contracts/codec.js';
import { errors } from '../../../core/contracts/api-error.js';
import { duplicateFields } from '../../../lib/codec/duplicate-fields.js';
import { summarizeBody } from '../../../lib/codec/summarize-body.js';
import { goJsonParseError } from '../../../lib/go/json-errors.js';

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

  /** A body that is not JSON gets kube's 400 text, Go's syntax error and the body's first bytes in it. */
  decode(raw: Buffer, expected: TypeMeta): unknown {
    const text = raw.toString('utf8');
    try {
      return JSON.parse(text);
    } catch {
      throw errors.badRequest(
        `the object provided is unrecognized (must be of type ${expected.kind}): couldn't get version/kind; json parse error: ${goJsonParseError(text)} (${summarizeBody(raw)})`,
      );
    }
  }

  duplicateFields(raw: Buffer): string[] {
    return duplicateFields(raw.toString('utf8'));
  }
}
