import type { Codec, ListArrayField, ListObject, TypeMeta, WatchFraming } from '../../../core/contracts/codec.js';
import { errors } from '../../../core/contracts/api-error.js';
import { summarizeBody } from '../../../lib/codec/summarize-body.js';
import type { ByteFields } from './byte-fields.js';
import type { ByteFieldsLookup } from './byte-field-kinds.js';
import { decodeCborContent } from './cbor-decoder.js';
import { encodeCbor, encodeCborList, encodeCborListPieces } from './cbor-encoder.js';
import { CborError } from './cbor-errors.js';
import { probeTypeMeta } from './type-meta-probe.js';
import { cborSequenceMediaType, encodeCborWatchEvent } from './watch-event.js';
import { checkWellFormed } from './well-formed.js';

export const cborMediaType = 'application/cbor';
export const cborApplyPatchMediaType = 'application/apply-patch+cbor';

/**
 * CBOR as Kubernetes 1.32+ speaks it (feature CBORServingAndStorage): `application/cbor` for every resource, custom
 * resources included, `application/cbor-seq` watch streams, `application/apply-patch+cbor` for server-side apply.
 * `byteFields` says where objects of a kind have Go `[]byte` fields (none by default), written and read as kube does.
 */
export class CborCodec implements Codec {
  readonly mediaType = cborMediaType;
  readonly bodyMediaTypes = [cborMediaType];
  readonly applyPatchMediaType = cborApplyPatchMediaType;
  readonly stream: WatchFraming;

  constructor(private readonly byteFields: ByteFieldsLookup = () => undefined) {
    this.stream = {
      contentType: cborSequenceMediaType,
      encodeEvent: (type, object) => encodeCborWatchEvent(type, object, this.byteFields(object as TypeMeta)),
    };
  }

  /** Everything but Table, which kube serves as JSON and YAML only. */
  encodes(type: TypeMeta): boolean {
    return !(type.kind === 'Table' && (type.apiVersion === 'meta.k8s.io/v1' || type.apiVersion === 'meta.k8s.io/v1beta1'));
  }

  encode(object: object): Buffer {
    const shape = this.byteFields(object as TypeMeta);
    return Array.isArray((object as { items?: unknown }).items) ? encodeCborList(object as Record<string, unknown>, shape) : encodeCbor(object, shape);
  }

  encodeListPieces(list: ListObject, field: ListArrayField = 'items'): Iterable<Buffer> {
    return encodeCborListPieces(list, field, this.byteFields(list as unknown as TypeMeta));
  }

  decode(raw: Buffer, expected: TypeMeta): unknown {
    return decodeCborBody(raw, expected, this.byteFields(expected));
  }

  /** kube's CBOR decoder stops at the first unknown field and names only its index in its map (fxamacker/cbor's UnknownFieldError). */
  unknownFieldErrors(_paths: string[], firstIndex: number): string[] {
    return [`cbor: found unknown field at map element index ${firstIndex}`];
  }
}

/**
 * Decodes a CBOR request body (the self-described tag is optional, as for kube) with kube's 400 texts: when the
 * data is not even well-formed, or has no readable top-level apiVersion/kind, `the object provided is unrecognized
 * (must be of type K): unable to determine group/version/kind: <cause> (<hex of the first 30 bytes>)`; otherwise
 * `K in version "v" cannot be handled as a K: <cause>`. `shape`: the byte fields of the kind it is decoded into.
 */
export function decodeCborBody(raw: Buffer, expected: TypeMeta, shape?: ByteFields): unknown {
  try {
    checkWellFormed(raw);
  } catch (err) {
    throw unrecognized(cborError(err), raw, expected);
  }
  try {
    return decodeCborContent(raw, shape);
  } catch (err) {
    const cause = cborError(err);
    let probed: TypeMeta;
    try {
      probed = probeTypeMeta(raw);
    } catch (probeErr) {
      throw unrecognized(cborError(probeErr), raw, expected);
    }
    const actual = withDefaults(groupVersionKind(probed), groupVersionKind(expected));
    throw errors.badRequest(`${actual.kind} in version ${JSON.stringify(actual.version)} cannot be handled as a ${expected.kind}: ${cause.message}`);
  }
}

/** Anything but a CborError is a bug and stays one (a 500), rather than passing for bad input. */
function cborError(err: unknown): CborError {
  if (err instanceof CborError) return err;
  throw err;
}

function unrecognized(cause: CborError, raw: Buffer, expected: TypeMeta) {
  return errors.badRequest(
    `the object provided is unrecognized (must be of type ${expected.kind}): unable to determine group/version/kind: ${cause.message} (${summarizeBody(raw)})`,
  );
}


interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** Go's schema.FromAPIVersionAndKind: an apiVersion with more than one slash gives no group/version. */
function groupVersionKind(t: TypeMeta): GroupVersionKind {
  const parts = t.apiVersion === '/' ? [''] : t.apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]!, kind: t.kind };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]!, kind: t.kind };
  return { group: '', version: '', kind: t.kind };
}

/** kube's gvkWithDefaults: what the body leaves out comes from what the endpoint serves. */
function withDefaults(actual: GroupVersionKind, defaults: GroupVersionKind): GroupVersionKind {
  const out = { ...actual };
  if (!out.kind) out.kind = defaults.kind;
  if (!out.version && !out.group) {
    out.group = defaults.group;
    out.version = defaults.version;
  }
  if (!out.version && out.group === defaults.group) out.version = defaults.version;
  return out;
}
