import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';

/**
 * An OpenAPI v3 schema as Swagger 2.0 (and kubectl's v2 validation) can take it, the way kube publishes CRD schemas
 * in /openapi/v2: described references become plain `$ref`s to `#/definitions/`, junctors (allOf, anyOf, oneOf, not)
 * are dropped, nullable values lose their type, and values preserving unknown fields lose properties and items.
 */
export function toSwaggerSchema(schema: JSONSchemaProps): JSONSchemaProps {
  const { allOf, anyOf: _anyOf, oneOf: _oneOf, not: _not, nullable, ...out } = schema;
  const ref = allOf?.length === 1 ? allOf[0]!.$ref : out.$ref;
  if (typeof ref === 'string') out.$ref = ref.replace('#/components/schemas/', '#/definitions/');
  if (nullable || out['x-kubernetes-preserve-unknown-fields']) {
    delete out.items;
    delete out.properties;
    if (nullable) delete out.type;
  }
  if (out.type === 'array' && !out.items) delete out.type;
  if (out.items) out.items = toSwaggerSchema(out.items);
  if (typeof out.additionalProperties === 'object') {
    if (out.additionalProperties.nullable) delete out.required;
    out.additionalProperties = toSwaggerSchema(out.additionalProperties);
  }
  if (out.properties) {
    const props = out.properties;
    const required = out.required?.filter((name) => !props[name]?.nullable);
    if (out.required) {
      if (required?.length) out.required = required;
      else delete out.required;
    }
    out.properties = Object.fromEntries(Object.entries(props).map(([name, s]) => [name, toSwaggerSchema(s)]));
  }
  return out;
}
