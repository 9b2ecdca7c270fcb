import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';

/** core/v1 ConfigMap as kube's decoder sees it: binaryData values are base64 (`[]byte`). */
export const configMapGoType: GoStructType = kindGoType('v1.ConfigMap', {
  immutable: t.bool,
  data: t.map(t.string()),
  binaryData: t.map(t.bytes),
});
