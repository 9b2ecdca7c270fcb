import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { byteSize, immutableCauses, keyCauses, maxDataSize, sortedKeys, type DataMap } from '../core-v1/data-maps.js';

/** The fields of a ConfigMap the validation reads (already decoded into its Go type). */
export interface ConfigMapFields {
  immutable?: boolean;
  data?: DataMap;
  binaryData?: DataMap;
}

/** kube's ValidateConfigMap beyond metadata: keys, keys in both maps, the total size of the values. */
export function configMapCauses(cm: ConfigMapFields): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const key of sortedKeys(cm.data)) {
    causes.push(...keyCauses('data', key));
    if (cm.binaryData && Object.hasOwn(cm.binaryData, key)) {
      causes.push(fieldErrors.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    }
  }
  for (const key of sortedKeys(cm.binaryData)) causes.push(...keyCauses('binaryData', key));
  let size = 0;
  for (const value of Object.values(cm.data ?? {})) size += Buffer.byteLength(value, 'utf8');
  for (const value of Object.values(cm.binaryData ?? {})) size += byteSize(value);
  // kube names the whole object here: a path of one empty element, printed `[]`.
  if (size > maxDataSize) causes.push(fieldErrors.tooLong('[]', maxDataSize));
  return causes;
}

/** kube's ValidateConfigMapUpdate: an immutable ConfigMap keeps its data, binaryData and `immutable: true`. */
export function configMapUpdateCauses(cm: ConfigMapFields, old: ConfigMapFields): StatusCause[] {
  return [...immutableCauses(cm as Record<string, unknown>, old as Record<string, unknown>, ['data', 'binaryData']), ...configMapCauses(cm)];
}
