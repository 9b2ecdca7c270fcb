import { contentHash } from '../discovery/content-hash.js';
import { servedGroups } from '../discovery/served-groups.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { DocumentInfo } from './document-info.js';
import { openapiV3Protobuf, swaggerProtobuf } from './gnostic-protobuf.js';
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

export function buildOpenApiV3(registry: ResourceRegistry, info: DocumentInfo): OpenApiV3Documents {
  const groupVersions = new Map<string, SerializedDocument>();
  for (const group of servedGroups(registry)) {
    for (const version of group.versions) {
      const key = group.name ? `apis/${group.name}/${version.version}` : `api/${version.version}`;
      groupVersions.set(key, serialize(openapiV3Document(version.resources, info), openapiV3Protobuf));
    }
  }
  const paths = Object.fromEntries([...groupVersions].map(([key, doc]) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` }]));
  return { root: JSON.stringify({ paths: sortedByKey(paths) }), groupVersions };
}

export function buildSwagger(registry: ResourceRegistry, info: DocumentInfo): SerializedDocument {
  return serialize(swaggerDocument(servedGroups(registry), info), swaggerProtobuf);
}

function serialize(doc: object, toProtobuf: (json: string) => Uint8Array): SerializedDocument {
  const json = JSON.stringify(doc);
  let protobuf: Buffer | undefined;
  const encode = () => {
    const bytes = toProtobuf(json);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
  return { json, hash: contentHash(json), protobuf: () => (protobuf ??= encode()) };
}
