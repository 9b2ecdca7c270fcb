import { contentHash } from '../../lib/k8s/content-hash.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { APIServiceRegistry, RemoteOpenAPI } from '../contracts/api-services.js';

/** A serialized document and the hash kube-openapi derives its ETag (and v3 `?hash=`) from. */
export interface SerializedDocument {
  json: string;
  hash: string;
  /** The JSON as gnostic protobuf; encoded on first use and kept with the document (rebuilt when the registry changes). */
  protobuf(): Buffer;
}

/** What the documents are built from: the served types, and when aggregation is composed in, the remote group-versions. */
export interface OpenApiSources {
  registry: ResourceRegistry;
  apiServices?: APIServiceRegistry;
  remoteOpenAPI?: RemoteOpenAPI;
}

export function serialize(doc: object, toProtobuf: (json: string) => Uint8Array): SerializedDocument {
  const json = JSON.stringify(doc);
  return serializedJson(json, contentHash(json), toProtobuf);
}

export function serializedJson(json: string, hash: string, toProtobuf: (json: string) => Uint8Array): SerializedDocument {
  let protobuf: Buffer | undefined;
  const encode = () => {
    const bytes = toProtobuf(json);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
  return { json, hash, protobuf: () => (protobuf ??= encode()) };
}
