import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { ServedResource } from '../discovery/served-groups.js';
import { schemaRef } from './definition-names.js';
import type { DocumentInfo } from './document-info.js';
import { bearerTokenScheme } from './document-info.js';
import { kindSchemas } from './kind-schemas.js';
import type { Parameter } from './query-parameters.js';
import { operationRefs, referencedMetaSchemas } from './referenced-definitions.js';
import type { Operation, PathItem } from './resource-paths.js';
import { resourcePaths } from './resource-paths.js';
import { sortedByKey } from './sorted-by-key.js';

/** The OpenAPI 3.0 document of one group-version (/openapi/v3/apis/GROUP/VERSION): its paths and the schemas they use. */
export function openapiV3Document(resources: ServedResource[], info: DocumentInfo) {
  const paths: Record<string, object> = {};
  const schemas: Record<string, JSONSchemaProps> = {};
  const items: PathItem[] = [];
  for (const resource of resources) {
    for (const item of resourcePaths(resource)) {
      paths[item.path] = pathItem(item);
      items.push(item);
    }
    Object.assign(schemas, kindSchemas(resource));
  }
  Object.assign(schemas, referencedMetaSchemas([...operationRefs(items), schemas]));
  return {
    openapi: '3.0.0',
    info,
    paths: sortedByKey(paths),
    components: { schemas: sortedByKey(schemas), securitySchemes: { BearerToken: bearerTokenScheme } },
  };
}

function pathItem(item: PathItem): object {
  return {
    ...Object.fromEntries(item.operations.map((o) => [o.method, operation(o)])),
    ...(item.parameters.length ? { parameters: item.parameters.map(parameter) } : {}),
  };
}

function operation(o: Operation): object {
  const content = (schema: string, types: string[]) => Object.fromEntries(types.map((t) => [t, { schema: schemaRef(schema) }]));
  return {
    tags: [o.tag],
    description: o.description,
    operationId: o.operationId,
    ...(o.parameters.length ? { parameters: o.parameters.map(parameter) } : {}),
    ...(o.body ? { requestBody: { content: content(o.body.schema, o.body.contentTypes), ...(o.body.required ? { required: true } : {}) } } : {}),
    responses: Object.fromEntries(o.responses.map((r) => [r.code, { description: r.description, ...(r.schema ? { content: content(r.schema, o.produces) } : {}) }])),
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version },
  };
}

function parameter(p: Parameter): object {
  return { name: p.name, in: p.in, description: p.description, ...(p.in === 'path' ? { required: true } : {}), schema: { type: p.type, uniqueItems: true } };
}
