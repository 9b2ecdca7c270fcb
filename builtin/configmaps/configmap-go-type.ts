import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { objectMetaGoType } from '../../schemas/object-meta-go-type.js';

/** core/v1 ConfigMap as kube's decoder sees it: binaryData values are base64 (`[]byte`). */
export const configMapGoType: GoStructType = t.struct('v1.ConfigMap', {
  metadata: objectMetaGoType,
  immutable: t.bool,
  data: t.map(t.string()),
  binaryData: t.map(t.bytes),
});
