import { createHash } from 'node:crypto';
import { slicer } from '../handlers/event-loop-slices.js';
import type { DocumentInfo } from './document-info.js';
import { bearerTokenScheme } from './document-info.js';
import { mergeSwagger, type SerializedSwagger, type SwaggerSpec } from './merge-swagger.js';
import { metaDefinitionJson, type SwaggerPiece } from './openapi-v2.js';

/** The Swagger document as JSON in parts (their concatenation), and the hash of that JSON. */
export interface AssembledSwagger {
  parts: string[];
  hash: string;
}

/**
 * The Swagger 2.0 document of everything served (/openapi/v2) from the group-versions' pieces, in their order (a later
 * piece's definition of a name wins, the shared definitions last), with the backends' specs merged in, highest priority
 * first. The JSON (in parts) is exactly JSON.stringify of the document with its paths and definitions sorted by key, but written
 * from the pieces' serialized values and hashed as it goes, with the event loop free every ~10 ms: one stringify and
 * hash of a document of thousands of CRDs holds the loop for hundreds of milliseconds.
 */
export async function assembleSwagger(pieces: readonly SwaggerPiece[], remotes: readonly SwaggerSpec[], info: DocumentInfo): Promise<AssembledSwagger> {
  const spec: SerializedSwagger = { paths: new Map(), definitions: new Map() };
  const metaNames = new Set<string>();
  const slice = slicer();
  for (const piece of pieces) {
    for (const [path, json] of piece.paths) spec.paths.set(path, json);
    for (const [name, json] of piece.definitions) spec.definitions.set(name, json);
    for (const name of piece.metaNames) metaNames.add(name);
    await slice();
  }
  for (const name of metaNames) spec.definitions.set(name, metaDefinitionJson(name));
  for (const remote of remotes) {
    mergeSwagger(spec, remote);
    await slice();
  }

  const head = JSON.stringify({ swagger: '2.0', info });
  const tail = JSON.stringify({ securityDefinitions: { BearerToken: bearerTokenScheme }, security: [{ BearerToken: [] }] });
  const document = new JoinedInParts();
  document.write(`${head.slice(0, -1)},"paths":{`);
  await writeSorted(spec.paths, (chunk) => document.write(chunk), slice);
  document.write('},"definitions":{');
  await writeSorted(spec.definitions, (chunk) => document.write(chunk), slice);
  document.write(`},${tail.slice(1)}`);
  return document.end();
}

/** Characters joined into one part (and hashed) at a time. */
const partLength = 1 << 20;

/**
 * Small chunks joined (and hashed) a part of ~1 Mi characters at a time, as they are written: one join (and hash
 * updates) of the hundreds of thousands of chunks of a document of thousands of CRDs at the end held the event loop
 * for hundreds of milliseconds. The parts are kept apart: even joining those few is a copy of tens of MiB.
 */
class JoinedInParts {
  private readonly parts: string[] = [];
  private chunks: string[] = [];
  private length = 0;
  private readonly hash = createHash('sha512');

  write(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length >= partLength) this.flush();
  }

  end(): AssembledSwagger {
    this.flush();
    return { parts: this.parts, hash: this.hash.digest('hex').toUpperCase() };
  }

  private flush(): void {
    const part = this.chunks.join('');
    this.hash.update(part);
    this.parts.push(part);
    this.chunks = [];
    this.length = 0;
  }
}

/** `"key":value` of each entry, comma-separated, in Go's (byte-wise) key order. */
async function writeSorted(entries: Map<string, string>, write: (chunk: string) => void, slice: () => Promise<void>): Promise<void> {
  const keys = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 0; i < keys.length; i++) {
    write(`${i ? ',' : ''}${JSON.stringify(keys[i])}:${entries.get(keys[i]!)}`);
    await slice();
  }
}
