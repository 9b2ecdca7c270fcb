import { contentHash } from '../../lib/k8s/content-hash.js';
import { servedGroups } from '../discovery/served-groups.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { APIServiceRegistry, RemoteOpenAPI } from '../contracts/api-services.js';
import type { DocumentInfo } from './document-info.js';
import { openapiV3Protobuf, swaggerProtobuf } from './gnostic-protobuf.js';
import { mergeSwagger, type SwaggerSpec } from './merge-swagger.js';
import { swaggerDocument } from './openapi-v2.js';
import { openapiV3Document } from './openapi-v3.js';
import { sortedByKey } from './sorted-by-key.js';

/** A serialized document and the hash kube-openapi derives its ETag (and v3 `?hash=`) from. */
export interface SerializedDocument {
  json: string;
  hash: string;
  /** The JSON as gnostic protobuf; encoded on first use and kept with the document (rebuilt when the registry changes). */
  protobuf(): Buffer;
}

export interface OpenApiV3Documents {
  /** /openapi/v3: every group-version's document URL, with its hash. */
  root: string;
  /** By path under /openapi/v3/: `api/v1`, `apis/GROUP/VERSION`. */
  groupVersions: Map<string, SerializedDocument>;
}

/** What the documents are built from: the served types, and when aggregation is composed in, the remote group-versions. */
export interface OpenApiSources {
  registry: ResourceRegistry;
  apiServices?: APIServiceRegistry;
  remoteOpenAPI?: RemoteOpenAPI;
}

/** Every group-version's document: built here, or for a remote one its backend's as last read (none yet: not listed). */
export function buildOpenApiV3({ registry, apiServices, remoteOpenAPI }: OpenApiSources, info: DocumentInfo): OpenApiV3Documents {
  const groupVersions = new Map<string, SerializedDocument>();
  for (const group of servedGroups(registry, apiServices?.remotes())) {
    for (const version of group.versions) {
      const key = group.name ? `apis/${group.name}/${version.version}` : `api/${version.version}`;
      if (!version.remote) {
        groupVersions.set(key, serialize(openapiV3Document(version.resources, info), openapiV3Protobuf));
        continue;
      }
      const remote = remoteOpenAPI?.v3Document(version.remote);
      if (remote) groupVersions.set(key, serializedJson(remote.json, remote.hash, openapiV3Protobuf));
    }
  }
  const paths = Object.fromEntries([...groupVersions].map(([key, doc]) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` }]));
  return { root: JSON.stringify({ paths: sortedByKey(paths) }), groupVersions };
}

/** The Swagger 2.0 spec of what is served here, with the backends' specs merged in, highest priority first. */
export function buildSwagger({ registry, apiServices, remoteOpenAPI }: OpenApiSources, info: DocumentInfo): SerializedDocument {
  const groups = servedGroups(registry, apiServices?.remotes());
  const doc = swaggerDocument(groups, info) as ReturnType<typeof swaggerDocument> & { paths: Record<string, unknown>; definitions: Record<string, unknown> };
  for (const version of groups.flatMap((g) => g.versions)) {
    const spec = version.remote && remoteOpenAPI?.swagger(version.remote);
    if (spec) mergeSwagger(doc, spec as SwaggerSpec);
  }
  return serialize({ ...doc, paths: sortedByKey(doc.paths), definitions: sortedByKey(doc.definitions) }, swaggerProtobuf);
}

function serialize(doc: object, toProtobuf: (json: string) => Uint8Array): SerializedDocument {
  const json = JSON.stringify(doc);
  return serializedJson(json, contentHash(json), toProtobuf);
}

function serializedJson(json: string, hash: string, toProtobuf: (json: string) => Uint8Array): SerializedDocument {
  let protobuf: Buffer | undefined;
  const encode = () => {
    const bytes = toProtobuf(json);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
  return { json, hash, protobuf: () => (protobuf ??= encode()) };
}
