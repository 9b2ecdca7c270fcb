import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { compileSchema } from '../../schemas/structural-schema.js';
import { canonicalizeBytes, dropIfEmpty, type DataMap } from '../core-v1/data-maps.js';
import { secretGoType } from './secret-go-type.js';
import { secretTablePrinter } from './secret-printer.js';
import { secretTypes } from './secret-types.js';
import { secretCauses, secretUpdateCauses, type SecretFields } from './secret-validation.js';

type Secret = KubeObject & SecretFields & { stringData?: DataMap };

/**
 * What kube's decoding makes of a written Secret: stringData merged into data (its values win) and never kept, the
 * type defaulted to Opaque.
 */
function mergeStringData(secret: Secret): void {
  if (secret.stringData) {
    secret.data ??= {};
    for (const [key, value] of Object.entries(secret.stringData)) secret.data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
  delete secret.stringData;
  secret.type ||= secretTypes.opaque;
}

/** v1 Secret: namespaced, no generation, typed (the type never changes), immutable once `immutable` is true. */
export function secretResource(): ResourceType {
  const schema = builtinSchema('secret.v1');
  const compiled = compileSchema(schema);
  // Already decoded into its Go type (goType): unknown fields are dropped, bytes and empty maps as Go writes them.
  const decode = (obj: Secret) => {
    compiled.prune(obj);
    canonicalizeBytes(obj.data);
    mergeStringData(obj);
    dropIfEmpty(obj, 'data');
  };
  return {
    group: '',
    names: { plural: 'secrets', singular: 'secret', kind: 'Secret', listKind: 'SecretList' },
    scope: 'Namespaced',
    allowUnconditionalUpdate: true,
    withoutGeneration: true,
    goType: secretGoType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema,
        tablePrinter: secretTablePrinter,
        // kube's Secret field selectors: metadata.name, metadata.namespace and type
        selectableFields: [{ jsonPath: '.type' }],
      },
    ],
    strategy: {
      prepareForCreate: decode,
      prepareForUpdate: decode,
      validate: (obj: Secret, old?: Secret) => (old ? secretUpdateCauses(obj, old) : secretCauses(obj)),
    },
  };
}
