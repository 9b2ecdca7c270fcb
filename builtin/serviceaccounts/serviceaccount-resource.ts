import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import type { RestStorage } from '../../core/contracts/rest-storage.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { serviceAccountGoType } from './serviceaccount-go-type.js';
import { serviceAccountTablePrinter } from './serviceaccount-printer.js';

/** The served ServiceAccount resource, as controllers and the token subresource address it. */
export const serviceAccountResourceRef = { group: '', resource: 'serviceaccounts' };

/** kube's strategy keeps only the name of each listed secret (cleanSecretReferences), on create and update. */
function keepSecretNames(obj: KubeObject): void {
  const secrets = (obj as { secrets?: unknown }).secrets;
  if (!Array.isArray(secrets)) return;
  (obj as { secrets: unknown[] }).secrets = secrets.map((s: { name?: string }) => (s.name !== undefined ? { name: s.name } : {}));
}

/**
 * v1 ServiceAccount: namespaced, named as a DNS subdomain, with no generation (kube's strategy sets none). `token`
 * is the TokenRequest subresource, when tokens are configured.
 */
export function serviceAccountResource(token?: RestStorage): ResourceType {
  return {
    group: '',
    names: { plural: 'serviceaccounts', singular: 'serviceaccount', kind: 'ServiceAccount', listKind: 'ServiceAccountList', shortNames: ['sa'] },
    scope: 'Namespaced',
    allowUnconditionalUpdate: true,
    withoutGeneration: true,
    goType: serviceAccountGoType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema('serviceaccount.v1'), tablePrinter: serviceAccountTablePrinter }],
    ...(token ? { storageSubresources: { token } } : {}),
    strategy: { prepareForCreate: keepSecretNames, prepareForUpdate: keepSecretNames },
  };
}
