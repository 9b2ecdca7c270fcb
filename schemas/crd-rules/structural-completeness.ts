/**
 * Structural completeness, as kube-apiserver v1.32 checks it (apiextensions-apiserver schema/complete.go): every
 * field or array item that the root's allOf/anyOf/oneOf/not mention must also be specified in the structural part of
 * the schema. Like kube, only the value validations of the root are followed (those of nested nodes are not).
 */
import * as fe from './field-errors.js';
import { child, entries, field, index, isNode, itemsSchema, mapValue, schemaList, type SchemaNode } from './schema-node.js';
import type { SchemaCause } from '../validation-errors.js';

function because(sPath: string, vPath: string): SchemaCause {
  return fe.required(sPath, `because it is defined in ${vPath}`);
}

/** validateValueValidationCompleteness: the junctors of `v` against the structural node `s`. */
function valueValidation(v: SchemaNode, s: SchemaNode | undefined, sPath: string, vPath: string, out: SchemaCause[]): void {
  const not = field(v, 'not');
  if (isNode(not)) nested(not, s, sPath, child(vPath, 'not'), out);
  for (const name of ['allOf', 'anyOf', 'oneOf']) {
    schemaList(v, name).forEach((x, i) => nested(x, s, sPath, index(child(vPath, name), i), out));
  }
}

/** validateNestedValueValidationCompleteness */
function nested(v: SchemaNode, s: SchemaNode | undefined, sPath: string, vPath: string, out: SchemaCause[]): void {
  if (!s) {
    out.push(because(sPath, vPath));
    return;
  }
  valueValidation(v, s, sPath, vPath, out);
  const vItems = itemsSchema(v);
  if (vItems) nested(vItems, itemsSchema(s), child(sPath, 'items'), child(vPath, 'items'), out);
  for (const [k, p] of entries(v, 'properties')) {
    const sProp = mapValue(s, 'properties', k);
    const sKey = `${child(sPath, 'properties')}[${k}]`;
    const vKey = `${child(vPath, 'properties')}[${k}]`;
    if (!sProp) out.push(because(sKey, vKey));
    else nested(p, sProp, sKey, vKey, out);
  }
}

/** validateStructuralCompleteness of the root `s` at `path`. */
export function structuralCompleteness(s: SchemaNode, path: string, out: SchemaCause[]): void {
  valueValidation(s, s, path, path, out);
}
