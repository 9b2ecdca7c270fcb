import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { ServedResource } from '../discovery/served-groups.js';
import { kindSchemas } from './kind-schemas.js';
import { metaSchemas } from './meta-schemas.js';
import type { Parameter } from './query-parameters.js';
import { operationRefs, referencedMetaSchemas } from './referenced-definitions.js';
import type { Operation, PathItem } from './resource-paths.js';
import { resourcePaths } from './resource-paths.js';
import { toSwaggerSchema } from './swagger-schema.js';

/**
 * One group-version's share of the Swagger 2.0 document (/openapi/v2), already serialized: its paths and its kinds'
 * definitions as JSON by key, and the names of the shared (apimachinery, Scale) definitions they reference. The
 * document is these pieces merged (swagger-assembly.ts), so a changed group-version rebuilds only its own piece.
 */
export interface SwaggerPiece {
  paths: Map<string, string>;
  definitions: Map<string, string>;
  metaNames: string[];
}

/** The Swagger piece of a group-version's resources, with the same definition names as OpenAPI v3. */
export function swaggerPiece(resources: ServedResource[]): SwaggerPiece {
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
  return {
    paths: new Map(Object.entries(paths).map(([path, item]) => [path, JSON.stringify(item)])),
    definitions: new Map(Object.entries(schemas).map(([name, s]) => [name, JSON.stringify(toSwaggerSchema(s))])),
    metaNames: Object.keys(referencedMetaSchemas([...operationRefs(items), schemas])),
  };
}

const metaDefinitions = new Map<string, string>();

/** A shared definition in its Swagger form, serialized (once: they never change). */
export function metaDefinitionJson(name: string): string {
  let json = metaDefinitions.get(name);
  if (json === undefined) metaDefinitions.set(name, (json = JSON.stringify(toSwaggerSchema(metaSchemas[name]!))));
  return json;
}

function pathItem(item: PathItem): object {
  return {
    ...Object.fromEntries(item.operations.map((o) => [o.method, operation(o)])),
    ...(item.parameters.length ? { parameters: item.parameters.map(parameter) } : {}),
  };
}

function operation(o: Operation): object {
  const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
  const body = o.body ? [{ name: 'body', in: 'body', ...(o.body.required ? { required: true } : {}), schema: ref(o.body.schema) }] : [];
  return {
    description: o.description,
    consumes: o.body?.contentTypes ?? ['*/*'],
    produces: o.produces,
    schemes: ['https'],
    tags: [o.tag],
    operationId: o.operationId,
    ...(body.length || o.parameters.length ? { parameters: [...body, ...o.parameters.map(parameter)] } : {}),
    responses: Object.fromEntries(o.responses.map((r) => [r.code, { description: r.description, ...(r.schema ? { schema: ref(r.schema) } : {}) }])),
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version },
  };
}

function parameter(p: Parameter): object {
  return { uniqueItems: true, type: p.type, description: p.description, name: p.name, in: p.in, ...(p.in === 'path' ? { required: true } : {}) };
}
