/**
 * The values that are not of the kind their model expects, as structured-merge-diff's validation finds them when it
 * converts an object to a typed value (ObjectToTyped): a non-list where the model has a list (`expected list, got
 * &{map[a:b]}`), a non-map where it has a struct or map (`expected map, got &{[x]}`), with SMD's `%v` of the value.
 * Null counts as an empty list or map; scalars and deduced subtrees take any kind here.
 */
import { goV } from '../../lib/go/go-values.js';
import type { MergeModel } from '../merge-strategy.js';
import { isObject, type JsonObject } from './json-value.js';
import { isItemError, listItemElement } from './list-items.js';
import { fieldElement, type PathElement } from './path-element.js';
import { childModel } from './type-model.js';
import { validationError, type ValidationError } from './typed-errors.js';

/** SMD's `%v` of an unstructured value (a `*valueUnstructured`). */
const smdValue = (v: unknown): string => `&{${goV(v)}}`;

export function valueKindErrors(object: JsonObject, model: MergeModel): ValidationError[] {
  const errors: ValidationError[] = [];
  const path: PathElement[] = [];
  const walk = (value: unknown, m: MergeModel): void => {
    if (value === null || value === undefined) return;
    switch (m.kind) {
      case 'struct':
      case 'map':
        if (!isObject(value)) {
          errors.push(validationError(path, `expected map, got ${smdValue(value)}`));
          return;
        }
        for (const key of Object.keys(value)) {
          const child = childModel(m, key);
          if (!child) continue; // an undeclared field is the strict walk's error
          path.push(fieldElement(key));
          walk(value[key], child);
          path.pop();
        }
        return;
      case 'list':
        if (!Array.isArray(value)) {
          errors.push(validationError(path, `expected list, got ${smdValue(value)}`));
          return;
        }
        for (const item of value) {
          const pe = listItemElement(m, item);
          if (isItemError(pe)) return; // an item without its identity is the strict walk's error
          path.push(pe);
          walk(item, m.items);
          path.pop();
        }
        return;
      default:
        return;
    }
  };
  walk(object, model);
  return errors;
}
