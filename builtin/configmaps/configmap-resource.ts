import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { compileSchema } from '../../schemas/structural-schema.js';
import { canonicalizeBytes, dropIfEmpty } from '../core-v1/data-maps.js';
import { configMapGoType } from './configmap-go-type.js';
import { configMapTablePrinter } from './configmap-printer.js';
import { configMapCauses, configMapUpdateCauses, type ConfigMapFields } from './configmap-validation.js';

type ConfigMap = KubeObject & ConfigMapFields;

/** v1 ConfigMap: namespaced, no generation, immutable once `immutable` is true (kube's configmap strategy). */
export function configMapResource(): ResourceType {
  const schema = builtinSchema('configmap.v1');
  const compiled = compileSchema(schema);
  // Already decoded into its Go type (goType): unknown fields are dropped, bytes and empty maps as Go writes them.
  const decode = (obj: ConfigMap) => {
    compiled.prune(obj);
    canonicalizeBytes(obj.binaryData);
    dropIfEmpty(obj, 'data');
    dropIfEmpty(obj, 'binaryData');
  };
  return {
    group: '',
    names: { plural: 'configmaps', singular: 'configmap', kind: 'ConfigMap', listKind: 'ConfigMapList', shortNames: ['cm'] },
    scope: 'Namespaced',
    allowUnconditionalUpdate: true,
    withoutGeneration: true,
    goType: configMapGoType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [{ name: 'v1', served: true, storage: true, schema, tablePrinter: configMapTablePrinter }],
    strategy: {
      prepareForCreate: decode,
      prepareForUpdate: decode,
      validate: (obj: ConfigMap, old?: ConfigMap) => (old ? configMapUpdateCauses(obj, old) : configMapCauses(obj)),
    },
  };
}
