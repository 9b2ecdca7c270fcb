import { cborErrors } from './cbor-errors.js';
import { ContentDecoder } from './cbor-decoder.js';
import type { Head } from './cbor-head.js';

export interface ProbedTypeMeta {
  apiVersion: string;
  kind: string;
}

/**
 * Reads only the top-level `apiVersion` and `kind` of a well-formed data item, as kube's CBOR serializer does (a lax
 * decode into metav1.TypeMeta) when the full decode failed, to say which kind could not be handled. Values of other
 * keys are skipped unread. Throws CborError when even that fails.
 */
export function probeTypeMeta(data: Buffer): ProbedTypeMeta {
  const d = new ContentDecoder(data);
  const found: ProbedTypeMeta = { apiVersion: '', kind: '' };
  let h: Head;
  for (;;) {
    const initial = d.peek();
    if (initial === 0xf6 || initial === 0xf7) return found;
    h = d.head();
    if (h.major !== 6) break;
  }
  if (h.major !== 5) throw cborErrors.cannotUnmarshal(h.major, 'v1.TypeMeta');
  const seen = new Set<string>();
  const pairs = h.ai === 31 ? Infinity : h.value;
  for (let i = 0; i < pairs; i++) {
    if (h.ai === 31 && d.peek() === 0xff) break;
    const k = d.head();
    let name: string;
    if (k.major === 2) name = d.byteString(k, 0);
    else if (k.major === 3) name = d.textString(k);
    else if (k.major <= 1) name = String(k.major === 0 ? k.value : -1 - k.value);
    else throw cborErrors.keyNotFieldName(k.major);
    if (seen.has(name)) throw cborErrors.duplicateKey(name, i);
    seen.add(name);
    if (k.major >= 2 && (name === 'apiVersion' || name === 'kind')) found[name] = stringField(d, name);
    else d.skip();
  }
  return found;
}

/** A TypeMeta field's value: a text or byte string; null leaves it empty. */
function stringField(d: ContentDecoder, name: string): string {
  for (;;) {
    const initial = d.peek();
    if (initial === 0xf6 || initial === 0xf7) {
      d.skip();
      return '';
    }
    const h = d.head();
    if (h.major === 2) return d.byteString(h, 0);
    if (h.major === 3) return d.textString(h);
    if (h.major !== 6) throw cborErrors.cannotUnmarshal(h.major, 'string', `v1.TypeMeta.${name}`);
  }
}
