import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';

/** core/v1 Secret as kube's decoder sees it: data values are base64 (`[]byte`), stringData plain strings. */
export const secretGoType: GoStructType = kindGoType('v1.Secret', {
  immutable: t.bool,
  data: t.map(t.bytes),
  stringData: t.map(t.string()),
  type: t.string('v1.SecretType'),
});
