/**
 * The `Object…` message types of one kind's schema, for type checking mutations against the kinds a policy
 * matches: `Object` is the kind (with the full ObjectMeta), `Object.spec` its spec, `Object.spec.ports` the items
 * of the `ports` list (lists and maps add nothing to the name). A field the schema does not declare is cel-go's
 * `undefined field` error; a path that names no object is an undeclared type. Fields are typed as JSON values
 * of the schema: strings, integers, booleans, lists, string-keyed maps, nested `Object…` types; numbers,
 * int-or-string and schemaless subtrees are dyn. The values built are the same as with kube's dynamic types.
 */
import { JSON_PATCH_TYPE, JSON_PATCH_TYPE_NAME } from '../../../lib/cel/k8s-jsonpatch.js';
import { dynamicObjectType, ObjectVal, OBJECT_TYPE_NAME } from '../../../lib/cel/k8s-object-val.js';
import type { StructType, StructTypeResolver } from '../../../lib/cel/struct-types.js';
import { T, type Type } from '../../../lib/cel/types.js';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';
import { kindSchema } from '../type-checker.js';

/** The schema of the objects a node holds: list items and map values stand for their list or map. */
function objectSchema(s: JSONSchemaProps): JSONSchemaProps {
  while (s.type === 'array' && s.items) s = s.items;
  while (s.type === 'object' && !s.properties && typeof s.additionalProperties === 'object') s = s.additionalProperties;
  return s;
}

const hasDeclaredFields = (s: JSONSchemaProps): boolean => s.type === 'object' && !!s.properties;

export function schemaObjectTypes(schema: JSONSchemaProps): StructTypeResolver {
  const root = kindSchema(schema);
  const types = new Map<string, StructType | undefined>();

  const fieldType = (s: JSONSchemaProps, name: string): Type => {
    if (s['x-kubernetes-int-or-string']) return T.dyn;
    switch (s.type) {
      case 'string':
        return T.string;
      case 'integer':
        return T.int;
      case 'boolean':
        return T.bool;
      case 'array':
        return T.list(s.items ? fieldType(s.items, name) : T.dyn);
      case 'object':
        if (hasDeclaredFields(s)) return structType(name, s).type;
        return typeof s.additionalProperties === 'object' ? T.map(T.string, fieldType(s.additionalProperties, name)) : T.dyn;
      default:
        return T.dyn;
    }
  };

  const structType = (name: string, s: JSONSchemaProps): StructType => {
    const open = !!s['x-kubernetes-preserve-unknown-fields'];
    const field = (f: string): Type | undefined => {
      const prop = s.properties?.[f];
      if (prop) return fieldType(prop, `${name}.${f}`);
      return open ? T.dyn : undefined;
    };
    return { type: { kind: 'object', name, decl: { name, field } }, field, construct: (fields) => new ObjectVal(name, fields) };
  };

  const resolve = (name: string): StructType | undefined => {
    const [first, ...path] = name.split('.');
    if (first !== OBJECT_TYPE_NAME) return undefined;
    let s: JSONSchemaProps | undefined = root;
    for (const f of path) {
      if (!hasDeclaredFields(s)) return s['x-kubernetes-preserve-unknown-fields'] || !s.type ? dynamicObjectType(name) : undefined;
      const prop: JSONSchemaProps | undefined = s.properties?.[f];
      if (!prop) return s['x-kubernetes-preserve-unknown-fields'] ? dynamicObjectType(name) : undefined;
      s = objectSchema(prop);
    }
    if (hasDeclaredFields(s)) return structType(name, s);
    return s['x-kubernetes-preserve-unknown-fields'] || !s.type ? dynamicObjectType(name) : undefined;
  };

  return (name) => {
    if (name === JSON_PATCH_TYPE_NAME) return JSON_PATCH_TYPE;
    if (!types.has(name)) types.set(name, resolve(name));
    return types.get(name);
  };
}
