import { goTypes as t } from '../../lib/go/json-decoding.js';

/** core/v1 ObjectReference, which Events, ServiceAccounts and Endpoints embed. */
export const objectReferenceGoType = t.struct('v1.ObjectReference', {
  kind: t.string(),
  namespace: t.string(),
  name: t.string(),
  uid: t.string('types.UID'),
  apiVersion: t.string(),
  resourceVersion: t.string(),
  fieldPath: t.string(),
});
