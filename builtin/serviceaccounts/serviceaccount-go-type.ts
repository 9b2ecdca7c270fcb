import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';

/** core/v1 ServiceAccount as kube's decoder sees it. */
export const serviceAccountGoType: GoStructType = kindGoType('v1.ServiceAccount', {
  secrets: t.slice(
    t.struct('v1.ObjectReference', {
      kind: t.string(),
      namespace: t.string(),
      name: t.string(),
      uid: t.string('types.UID'),
      apiVersion: t.string(),
      resourceVersion: t.string(),
      fieldPath: t.string(),
    }),
  ),
  imagePullSecrets: t.slice(t.struct('v1.LocalObjectReference', { name: t.string() })),
  automountServiceAccountToken: t.bool,
});
