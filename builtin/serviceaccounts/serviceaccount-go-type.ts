import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';
import { objectReferenceGoType } from '../core-v1/object-reference-go-type.js';

/** core/v1 ServiceAccount as kube's decoder sees it. */
export const serviceAccountGoType: GoStructType = kindGoType('v1.ServiceAccount', {
  secrets: t.slice(objectReferenceGoType),
  imagePullSecrets: t.slice(t.struct('v1.LocalObjectReference', { name: t.string() })),
  automountServiceAccountToken: t.bool,
});
