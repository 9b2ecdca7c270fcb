/**
 * Whether kube-apiserver can convert a schema into its structural form (apiextensions-apiserver schema.NewStructural),
 * and the error when it cannot. When it cannot, kube skips the structural-schema and default checks; the error
 * itself is only reported when nothing else is wrong (the other fields it trips on are reported on their own).
 */
import { additionalSchema, entries, field, isNode, itemsArray, itemsSchema, mapSize, schemaList, str, type SchemaNode } from './schema-node.js';

/** validateUnsupportedFields: the fields NewStructural refuses. */
function unsupportedField(s: SchemaNode): string | undefined {
  if (str(s, 'id') !== '') return "OpenAPIV3Schema 'id' is not supported";
  if (str(s, '$schema') !== '') return "OpenAPIV3Schema 'schema' is not supported";
  if (str(s, '$ref') !== '') return "OpenAPIV3Schema '$ref' is not supported";
  if (mapSize(s, 'patternProperties') > 0) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (mapSize(s, 'dependencies') > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (field(s, 'additionalItems') !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (mapSize(s, 'definitions') > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

function node(s: SchemaNode): string | undefined {
  const unsupported = unsupportedField(s);
  if (unsupported) return unsupported;
  // value validations: not, allOf, anyOf, oneOf
  const not = field(s, 'not');
  if (isNode(not)) {
    const err = node(not);
    if (err) return err;
  }
  for (const name of ['allOf', 'anyOf', 'oneOf']) {
    for (const x of schemaList(s, name)) {
      const err = node(x);
      if (err) return err;
    }
  }
  const ap = additionalSchema(s);
  if (ap) {
    const err = node(ap);
    if (err) return err;
  }
  if (field(s, 'x-kubernetes-preserve-unknown-fields') === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  if (itemsArray(s).length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const items = itemsSchema(s);
  if (items) {
    const err = node(items);
    if (err) return err;
  }
  for (const [, p] of entries(s, 'properties')) {
    const err = node(p);
    if (err) return err;
  }
  return undefined;
}

/** NewStructural's error for `schema`, or undefined when it converts. */
export function structuralConversionError(schema: SchemaNode): string | undefined {
  return node(schema);
}
