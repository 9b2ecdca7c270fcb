import { contentHash } from '../../lib/k8s/content-hash.js';
import { encodeGnostic } from './gnostic-encoder.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import type { APIServiceRegistry, RemoteOpenAPI } from '../contracts/api-services.js';

/** A serialized document and the hash kube-openapi derives its ETag (and v3 `?hash=`) from. */
export interface SerializedDocument {
  /** The JSON as one string (joined from `parts` on first use). */
  readonly json: string;
  /**
   * The JSON in parts, one after the other: a document of thousands of CRDs (tens of MiB) is written from them, never
   * copied into one string first (the copy alone held the event loop for over 100 ms).
   */
  readonly parts: readonly string[];
  hash: string;
  /** The JSON as gnostic protobuf; encoded on first use (off the event loop, from the parts) and kept with the document. */
  protobuf(): Promise<Buffer>;
}

/** What the documents are built from: the served types, and when aggregation is composed in, the remote group-versions. */
export interface OpenApiSources {
  registry: ResourceRegistry;
  apiServices?: APIServiceRegistry;
  remoteOpenAPI?: RemoteOpenAPI;
}

/** A group-version's OpenAPI v3 document (`v3`) or the Swagger document (`v2`), serialized. */
export function serialize(doc: object, kind: 'v2' | 'v3'): SerializedDocument {
  const json = JSON.stringify(doc);
  return serializedJson(json, contentHash(json), kind);
}

export function serializedJson(json: string, hash: string, kind: 'v2' | 'v3'): SerializedDocument {
  return serializedParts([json], hash, kind);
}

/** A document serialized in parts (their concatenation is the JSON), with its hash. */
export function serializedParts(parts: readonly string[], hash: string, kind: 'v2' | 'v3'): SerializedDocument {
  let protobuf: Promise<Buffer> | undefined;
  let json: string | undefined;
  return {
    get json() {
      return (json ??= parts.join(''));
    },
    parts,
    hash,
    protobuf: () =>
      (protobuf ??= encodeGnostic(kind, parts).catch((err: unknown) => {
        protobuf = undefined; // tried again on the next request
        throw err;
      })),
  };
}
