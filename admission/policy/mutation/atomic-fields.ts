/**
 * The atomic values an apply configuration sets (kube's findAtomics in the mutating policy's smd.go): atomic structs
 * and maps, atomic lists and lists without a schema, found through declared fields and list items. Merging one would
 * silently drop the live fields the configuration does not repeat, so kube refuses such configurations.
 */
import type { MergeModel } from '../../../schemas/merge-strategy.js';
import { isObject } from '../../../schemas/structured-merge/json-value.js';

/** The paths (`.spec.ports`, `.spec.items[0].selector`) of the atomic values in `value`. */
export function atomicPaths(value: unknown, model: MergeModel, path = '', out: string[] = []): string[] {
  switch (model.kind) {
    case 'struct':
      if (!isObject(value)) break;
      if (model.atomic) out.push(path);
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(model.fields, key)) atomicPaths(value[key], model.fields[key], `${path}.${key}`, out);
      }
      break;
    case 'map':
      if (isObject(value) && model.atomic) out.push(path);
      break;
    case 'list':
      if (!Array.isArray(value)) break;
      if (model.listType === 'atomic') out.push(path);
      value.forEach((item, i) => atomicPaths(item, model.items, `${path}[${i}]`, out));
      break;
    case 'deduced':
      // structured-merge-diff's deduced type: maps are granular, lists atomic
      if (Array.isArray(value)) out.push(path);
      break;
    case 'scalar':
      break;
  }
  return out;
}
