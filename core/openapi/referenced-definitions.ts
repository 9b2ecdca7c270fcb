import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { metaSchemas } from './meta-schemas.js';
import type { PathItem } from './resource-paths.js';

/**
 * The definitions the operations of `items` take and answer, as references: all a document's paths reference, found
 * without walking the paths as rendered (most of a document's nodes, and most of the walk's time).
 */
export function operationRefs(items: PathItem[]): JSONSchemaProps[] {
  return items.flatMap((item) => item.operations.flatMap((o) => [o.body?.schema, ...o.responses.map((r) => r.schema)].flatMap((name) => (name ? [{ $ref: name }] : []))));
}

/** The shared (apimachinery, Scale) definitions the given paths and schemas reference, directly or through each other. */
export function referencedMetaSchemas(roots: unknown[]): Record<string, JSONSchemaProps> {
  const found: Record<string, JSONSchemaProps> = {};
  const queue = [...roots];
  while (queue.length) {
    const node = queue.pop();
    if (!node || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') {
        queue.push(value);
        continue;
      }
      const name = value.slice(value.lastIndexOf('/') + 1);
      const schema = metaSchemas[name];
      if (schema && !found[name]) {
        found[name] = schema;
        queue.push(schema);
      }
    }
  }
  return found;
}
