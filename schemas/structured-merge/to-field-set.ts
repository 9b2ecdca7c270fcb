/**
 * The field set of an object under its model (SMD TypedValue.ToFieldSet): every leaf (scalars, atomic maps, structs
 * and lists), every list item (`k:`/`v:` element as a member, plus its fields), every map key that is not a
 * declared struct field, and every null or empty map. Non-empty granular structs themselves are not members.
 *
 * In strict mode (an applied configuration) the object is validated as SMD's ObjectToTyped does, and every
 * violation is reported at once; otherwise undeclared fields are walked as deduced and only items that cannot be
 * identified fail.
 */
import type { MergeModel } from '../merge-strategy.js';
import { FieldSet } from './field-set.js';
import { isItemError, listItemElement } from './list-items.js';
import { fieldElement, indexElement, pathElementString, type PathElement } from './path-element.js';
import { childModel, DEDUCED, isDeclared, isEmptyContainer, nodeKind, type ListModel } from './type-model.js';
import { TypedValueError, validationError, type ValidationError } from './typed-errors.js';
import { isObject, type JsonObject } from './json-value.js';

export function toFieldSet(object: JsonObject, model: MergeModel, strict = false): FieldSet {
  const w = new ToSetWalker(strict);
  const root = new FieldSet();
  w.mapItems(object, model, root);
  if (w.errors.length) throw new TypedValueError(w.errors);
  return root.isEmpty() ? FieldSet.EMPTY : root;
}

class ToSetWalker {
  readonly path: PathElement[] = [];
  readonly errors: ValidationError[] = [];

  constructor(private readonly strict: boolean) {}

  node(value: unknown, model: MergeModel, parent: FieldSet, pe: PathElement): void {
    const kind = nodeKind(model, value);
    if (kind === 'leaf') {
      if (this.strict) this.validateInside(value, model, pe);
      return parent.addMember(pe);
    }
    if (value === null) return;
    const node = new FieldSet();
    this.path.push(pe);
    if (kind === 'map') this.mapItems(value as JsonObject, model, node);
    else this.listItems(value as unknown[], model as ListModel, node);
    this.path.pop();
    parent.attach(pe, node);
  }

  mapItems(o: JsonObject, model: MergeModel, node: FieldSet): void {
    for (const key in o) {
      const v = o[key];
      if (v === undefined) continue;
      const pe = fieldElement(key);
      let m = childModel(model, key);
      if (!m) {
        if (this.strict) {
          this.errors.push(validationError([...this.path, pe], 'field not declared in schema'));
          return; // SMD stops at the first undeclared field of a map
        }
        m = DEDUCED;
      }
      this.node(v, m, node, pe);
      // Null and empty maps are owned as such (`resources: {}`), like keys that are not declared fields.
      if (v === null || (isObject(v) && isEmptyContainer(v)) || !isDeclared(model, key)) node.addMember(pe);
    }
  }

  /**
   * SMD validates what an atomic value holds too (its walk does not stop at atomic maps and lists): an undeclared
   * field inside one is refused as anywhere else. Items are named by index there, as SMD names non-associative items.
   */
  private validateInside(value: unknown, model: MergeModel, pe: PathElement): void {
    if (value === null || typeof value !== 'object' || model.kind === 'deduced') return;
    this.path.push(pe);
    if (Array.isArray(value)) {
      if (model.kind === 'list') value.forEach((item, i) => this.validateInside(item, model.items, indexElement(i)));
    } else if (model.kind === 'struct' || model.kind === 'map') {
      for (const key in value) {
        const m = childModel(model, key);
        if (!m) {
          this.errors.push(validationError([...this.path, fieldElement(key)], 'field not declared in schema'));
          break; // as in mapItems: SMD stops at the first undeclared field of a map
        }
        this.validateInside((value as JsonObject)[key], m, fieldElement(key));
      }
    }
    this.path.pop();
  }

  listItems(items: unknown[], model: ListModel, node: FieldSet): void {
    const seen = this.strict ? new Set<PathElement>() : undefined;
    for (let i = 0; i < items.length; i++) {
      const pe = listItemElement(model, items[i]);
      if (isItemError(pe)) {
        const err = validationError(this.path, `element ${i}: ${pe.error}`);
        if (!this.strict) throw new TypedValueError([err]);
        this.errors.push(err);
        return; // SMD cannot go on with this list
      }
      if (seen) {
        if (seen.has(pe)) this.errors.push(validationError(this.path, `duplicate entries for key ${pathElementString(pe)}`));
        seen.add(pe);
      }
      this.node(items[i], model.items, node, pe);
      node.addMember(pe);
    }
  }
}
