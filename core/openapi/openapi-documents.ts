import { contentHash } from '../discovery/content-hash.js';
import { servedGroups } from '../discovery/served-groups.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { DocumentInfo } from './document-info.js';
import { swaggerDocument } from './openapi-v2.js';
import { openapiV3Document } from './openapi-v3.js';
import { sortedByKey } from './sorted-by-key.js';

/** A serialized document and the hash kube-openapi derives its ETag (and v3 `?hash=`) from. */
export interface SerializedDocument {
  json: string;
  hash: string;
}

export interface OpenApiV3Documents {
  /** /openapi/v3: every group-version's document URL, with its hash. */
  root: string;
  /** By path under /openapi/v3/: `api/v1`, `apis/GROUP/VERSION`. */
  groupVersions: Map<string, SerializedDocument>;
}

export function buildOpenApiV3(registry: ResourceRegistry, info: DocumentInfo): OpenApiV3Documents {
  const groupVersions = new Map<string, SerializedDocument>();
  for (const group of servedGroups(registry)) {
    for (const version of group.versions) {
      const key = group.name ? `apis/${group.name}/${version.version}` : `api/${version.version}`;
      groupVersions.set(key, serialize(openapiV3Document(version.resources, info)));
    }
  }
  const paths = Object.fromEntries([...groupVersions].map(([key, doc]) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` }]));
  return { root: JSON.stringify({ paths: sortedByKey(paths) }), groupVersions };
}

export function buildSwagger(registry: ResourceRegistry, info: DocumentInfo): SerializedDocument {
  return serialize(swaggerDocument(servedGroups(registry), info));
}

function serialize(doc: object): SerializedDocument {
  const json = JSON.stringify(doc);
  return { json, hash: contentHash(json) };
}
