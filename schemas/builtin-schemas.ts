import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { JSONSchemaProps } from '../lib/openapi/json-schema-props.js';

// The YAML files live beside the sources (schemas/builtin/), one level above the compiled dist/schemas/.
const builtinDir = new URL('../../schemas/builtin/', import.meta.url);

const cache = new Map<string, JSONSchemaProps>();

/** The bundled OpenAPI v3 schema of a built-in kind, e.g. `namespace.v1`. */
export function builtinSchema(name: string): JSONSchemaProps {
  let schema = cache.get(name);
  if (!schema) {
    schema = YAML.parse(readFileSync(new URL(`${name}.yaml`, builtinDir), 'utf8')) as JSONSchemaProps;
    cache.set(name, schema);
  }
  return schema;
}
