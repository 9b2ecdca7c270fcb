/**
 * The OpenAPI rules kube-apiserver v1.32 applies to every node of a CRD schema (apiextensions validation
 * ValidateCustomResourceDefinitionOpenAPISchema and its specStandardValidatorV3): the keywords apiextensions/v1 does
 * not support, valid types, where defaults may be set, additionalProperties versus properties, and the rules of
 * x-kubernetes-preserve-unknown-fields, x-kubernetes-map-type, x-kubernetes-list-type and x-kubernetes-list-map-keys.
 * The x-kubernetes-validations rules (CEL) are checked elsewhere.
 */
import type { SchemaCause } from '../validation-errors.js';
import * as fe from './field-errors.js';
import {
  additionalAllows,
  additionalSchema,
  child,
  entries,
  field,
  flag,
  hasAdditional,
  index,
  isNode,
  itemsArray,
  itemsSchema,
  key,
  list,
  mapSize,
  mapValue,
  present,
  schemaList,
  str,
  type SchemaNode,
} from './schema-node.js';

/** The checks kube relaxes on update for CRDs that were accepted before they existed. */
export interface OpenAPIRuleOptions {
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

/** What the walk knows about the position of a node (kube's specStandardValidatorV3 state). */
interface Context {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

function withForbiddenDefaults(ctx: Context, reason: string): Context {
  return { ...ctx, allowDefaults: false, disallowDefaultsReason: reason };
}

/** specStandardValidatorV3.validate: the keywords of one node. */
function standardKeywords(s: SchemaNode, path: string, ctx: Context, opts: OpenAPIRuleOptions, out: SchemaCause[]): void {
  const type = str(s, 'type');
  if (opts.requireValidPropertyType && type !== '' && !OPENAPI_V3_TYPES.includes(type)) {
    out.push(fe.notSupported(child(path, 'type'), type, OPENAPI_V3_TYPES));
  }
  if (present(s, 'default') && !ctx.allowDefaults) {
    const reason = ctx.disallowDefaultsReason;
    out.push(fe.forbidden(child(path, 'default'), reason ? `must not be set ${reason}` : 'must not be set'));
  }
  if (str(s, 'id') !== '') out.push(fe.forbidden(child(path, 'id'), 'id is not supported'));
  if (present(s, 'additionalItems')) out.push(fe.forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (mapSize(s, 'patternProperties') > 0) out.push(fe.forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (mapSize(s, 'definitions') > 0) out.push(fe.forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (isNode(field(s, 'dependencies'))) out.push(fe.forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (typeof field(s, '$ref') === 'string') out.push(fe.forbidden(child(path, '$ref'), '$ref is not supported'));
  if (type === 'null') out.push(fe.forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (itemsArray(s).length > 0) out.push(fe.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && flag(s, 'x-kubernetes-embedded-resource')) {
    out.push(fe.forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
}

/** x-kubernetes-list-type=set: the items must be atomic. */
function atomicSetItems(s: SchemaNode, path: string, out: SchemaCause[]): void {
  const items = itemsSchema(s);
  if (!items) return;
  const itemListType = field(items, 'x-kubernetes-list-type');
  switch (str(items, 'type')) {
    case 'array':
      if (itemListType !== undefined && itemListType !== 'atomic') {
        out.push(fe.invalid(child(child(path, 'items'), 'x-kubernetes-list-type'), itemListType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
      break;
    case 'object':
      if (field(items, 'x-kubernetes-map-type') !== 'atomic') {
        // kube prints the items' x-kubernetes-list-type here (usually unset, so "null")
        out.push(fe.invalid(child(child(path, 'items'), 'x-kubernetes-map-type'), itemListType ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
      break;
  }
}

/** x-kubernetes-list-type=map: the keys name scalar properties of object items. */
function listMapKeys(s: SchemaNode, path: string, out: SchemaCause[]): void {
  const keys = list(s, 'x-kubernetes-list-map-keys');
  if (keys.length === 0) out.push(fe.required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  const rawItems = field(s, 'items');
  if (rawItems === undefined) out.push(fe.required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
  const items = itemsSchema(s);
  if (rawItems !== undefined && !items) {
    out.push(fe.invalid(child(path, 'items'), rawItems, 'must only have a single schema if x-kubernetes-list-type is map'));
  }
  if (!items) return;
  const itemsType = str(items, 'type');
  if (itemsType !== 'object') {
    out.push(fe.invalid(child(child(path, 'items'), 'type'), itemsType, "must be object if parent array's x-kubernetes-list-type is map"));
    return;
  }
  const seen = new Set<string>();
  for (const k of keys.map(String)) {
    const prop = mapValue(items, 'properties', k);
    if (prop) {
      const t = str(prop, 'type');
      if (t === 'array' || t === 'object') {
        // kube prints the items' type here, not the key's
        out.push(fe.invalid(child(key(child(child(path, 'items'), 'properties'), k), 'type'), itemsType, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
      }
    } else {
      out.push(fe.invalid(child(path, 'x-kubernetes-list-map-keys'), fe.goStringSlice(keys), 'entries must all be names of item properties'));
    }
    if (seen.has(k)) out.push(fe.invalid(child(path, 'x-kubernetes-list-map-keys'), fe.goStringSlice(keys), 'must not contain duplicate entries'));
    seen.add(k);
  }
}

/** validateMapListKeysMapSet: set and map items are not nullable; map keys are required or defaulted, not nullable. */
function mapListKeysMapSet(s: SchemaNode, path: string, out: SchemaCause[]): void {
  const items = itemsSchema(s);
  const listType = field(s, 'x-kubernetes-list-type');
  if (!items || (listType !== 'set' && listType !== 'map')) return;
  const itemsPath = child(path, 'items');
  if (flag(items, 'nullable')) out.push(fe.forbidden(child(itemsPath, 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return;
  const required = new Set(list(items, 'required').map(String));
  for (const k of list(s, 'x-kubernetes-list-map-keys').map(String)) {
    const prop = mapValue(items, 'properties', k);
    if (!prop) continue; // reported as not a property already
    const propPath = key(child(itemsPath, 'properties'), k);
    if (!required.has(k) && !present(prop, 'default')) {
      out.push(fe.required(child(propPath, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (flag(prop, 'nullable')) {
      out.push(fe.forbidden(child(propPath, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
}

function visit(s: SchemaNode, path: string, ctx: Context, isRoot: boolean, opts: OpenAPIRuleOptions, out: SchemaCause[]): void {
  standardKeywords(s, path, ctx, opts, out);
  if (flag(s, 'uniqueItems')) {
    out.push(fe.forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }

  // properties are for structs, additionalProperties for maps
  if (hasAdditional(s)) {
    if (mapSize(s, 'properties') !== 0 && (!additionalAllows(s) || additionalSchema(s))) {
      out.push(fe.forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const ap = additionalSchema(s);
    // pruning without an actual value is ambiguous, so no defaults in maps of object metadata (labels, annotations)
    const apCtx = ctx.insideResourceMeta ? withForbiddenDefaults(ctx, 'inside additionalProperties applying to object metadata') : ctx;
    if (ap) visit(ap, child(path, 'additionalProperties'), apCtx, false, opts, out);
  }

  const embedded = flag(s, 'x-kubernetes-embedded-resource');
  for (const [name, p] of entries(s, 'properties')) {
    let sub = ctx;
    if ((isRoot || embedded) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
    }
    visit(p, key(child(path, 'properties'), name), sub, false, opts, out);
  }

  const not = field(s, 'not');
  if (isNode(not)) visit(not, child(path, 'not'), ctx, false, opts, out);
  for (const name of ['allOf', 'oneOf', 'anyOf']) {
    schemaList(s, name).forEach((x, i) => visit(x, index(child(path, name), i), ctx, false, opts, out));
  }
  for (const [name, d] of entries(s, 'definitions')) visit(d, key(child(path, 'definitions'), name), ctx, false, opts, out);
  const items = itemsSchema(s);
  if (items) visit(items, child(path, 'items'), ctx, false, opts, out);
  itemsArray(s).forEach((x, i) => visit(x, index(child(path, 'items'), i), ctx, false, opts, out));
  const deps = field(s, 'dependencies');
  if (isNode(deps)) {
    for (const name of Object.keys(deps).sort()) {
      const d = deps[name];
      if (isNode(d)) visit(d, key(child(path, 'dependencies'), name), ctx, false, opts, out);
    }
  }

  if (field(s, 'x-kubernetes-preserve-unknown-fields') === false) {
    out.push(fe.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }

  const type = str(s, 'type');
  const mapType = field(s, 'x-kubernetes-map-type');
  if (mapType !== undefined && type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    out.push(type === '' ? fe.required(child(path, 'type'), detail) : fe.invalid(child(path, 'type'), type, detail));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    out.push(fe.notSupported(child(path, 'x-kubernetes-map-type'), String(mapType), ['atomic', 'granular']));
  }

  const listType = field(s, 'x-kubernetes-list-type');
  if (listType !== undefined && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    out.push(type === '' ? fe.required(child(path, 'type'), detail) : fe.invalid(child(path, 'type'), type, detail));
  } else if (opts.requireAtomicSetType && listType === 'set') {
    atomicSetItems(s, path, out);
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    out.push(fe.notSupported(child(path, 'x-kubernetes-list-type'), String(listType), ['atomic', 'set', 'map']));
  }
  if (list(s, 'x-kubernetes-list-map-keys').length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) out.push(fe.required(child(path, 'x-kubernetes-list-type'), detail));
    else if (listType !== 'map') out.push(fe.invalid(child(path, 'x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') listMapKeys(s, path, out);
  if (opts.requireMapListKeysMapSetValidation) mapListKeysMapSet(s, path, out);
}

/** The OpenAPI rules for a CRD version's openAPIV3Schema at `path`. */
export function openAPISchemaViolations(schema: SchemaNode, path: string, opts: OpenAPIRuleOptions): SchemaCause[] {
  const out: SchemaCause[] = [];
  visit(schema, path, { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false }, true, opts, out);
  return out;
}

/** Whether the schema has a x-kubernetes-list-type=map or =set list that validateMapListKeysMapSet rejects. */
export function hasInvalidMapListKeysMapSet(s: SchemaNode): boolean {
  const out: SchemaCause[] = [];
  mapListKeysMapSet(s, '', out);
  return out.length > 0;
}
