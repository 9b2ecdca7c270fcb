import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { goTime, kindGoType } from '../../schemas/object-meta-go-type.js';

/** authentication.k8s.io/v1 TokenRequest as kube's decoder sees it. */
export const tokenRequestGoType: GoStructType = kindGoType('v1.TokenRequest', {
  spec: t.struct('v1.TokenRequestSpec', {
    audiences: t.slice(t.string()),
    expirationSeconds: t.int64,
    boundObjectRef: t.struct('v1.BoundObjectReference', {
      kind: t.string(),
      apiVersion: t.string(),
      name: t.string(),
      uid: t.string('types.UID'),
    }),
  }),
  status: t.struct('v1.TokenRequestStatus', { token: t.string(), expirationTimestamp: goTime }),
});

export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

/** A decoded TokenRequest's fields kapi reads. */
export interface TokenRequest {
  metadata?: { name?: string; namespace?: string };
  spec?: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: BoundObjectReference };
}
