import { performance } from 'node:perf_hooks';
import type { RemoteAPIService } from '../contracts/api-services.js';
import { servedGroups, type ServedResource } from '../discovery/served-groups.js';
import { nextTurn, slicer } from '../handlers/event-loop-slices.js';
import type { DocumentInfo } from './document-info.js';
import type { SwaggerSpec } from './merge-swagger.js';
import { serialize, serializedJson, serializedParts, type OpenApiSources, type SerializedDocument } from './openapi-documents.js';
import { swaggerPiece, type SwaggerPiece } from './openapi-v2.js';
import { openapiV3Document } from './openapi-v3.js';
import { sortedByKey } from './sorted-by-key.js';
import { assembleSwagger } from './swagger-assembly.js';
import { contentHash } from '../../lib/k8s/content-hash.js';

/** A group-version as the documents publish it, under its path below /openapi/v3/ (`api/v1`, `apis/GROUP/VERSION`). */
interface GroupVersion {
  key: string;
  resources: ServedResource[];
  remote?: RemoteAPIService;
}

/** The /openapi/v3 index: its JSON, the hash its ETag carries, and when it last changed. */
export interface OpenApiIndex {
  json: string;
  hash: string;
  lastModified: Date;
}

/** What is kept of a group-version: its OpenAPI v3 document and its share of the Swagger document, and what they were built from. */
interface Entry {
  /** The served types and versions (or the remote APIService and its backend's document): the same objects, the same documents. */
  inputs: readonly unknown[];
  v3?: SerializedDocument;
  v2?: SwaggerPiece;
}

/** How long the sources must have been unchanged before the documents are built without a request waiting for them. */
const quietMs = 500;

/** The sources' generations when something was built (-1 for an absent source). */
type Stamp = readonly number[];

/**
 * The OpenAPI documents (/openapi/v3, its group-versions, /openapi/v2), built off the request path and kept per
 * group-version. A change of the registry or of the remote group-versions starts a rebuild in the background, in
 * slices with the event loop free in between, that rebuilds only the group-versions whose types changed, and the
 * index. A group-version's document is always current: kept when its types are unchanged, else built on the spot (one
 * group-version is small). The index and the Swagger document span every group-version: a request for them waits for
 * the rebuild under way (or the next one, when something changed since it started), as kube-openapi's lazily merged
 * specs do, while other requests are served. In the background, the documents are built only once the sources have
 * been quiet for a while: while thousands of CRDs are being established one after the other, rebuilding a group's
 * document for each of its kinds and merging the Swagger document again and again would be most of the server's work.
 */
export class OpenApiCache {
  private readonly entries = new Map<string, Entry>();
  private layout?: { stamp: Stamp; groupVersions: GroupVersion[] };
  private v3Root?: { stamp: Stamp; index: OpenApiIndex };
  private v2?: { stamp: Stamp; doc: SerializedDocument };
  private running?: Promise<void>;
  /** A request waits for the Swagger document, or the sources have been quiet: the rebuild under way merges it. */
  private v2Wanted = false;
  private quiet?: NodeJS.Timeout;
  /** When a source last changed (performance.now()). */
  private changedAt = 0;

  constructor(
    private readonly sources: () => OpenApiSources,
    private readonly info: () => DocumentInfo,
  ) {}

  /**
   * Call it when a source changed: the documents are rebuilt in the background once no source has changed for
   * `quietMs` (a request does not wait for that); a failure shows on the next request.
   */
  refresh(): void {
    this.changedAt = performance.now();
    this.quiet ??= setTimeout(() => this.whenQuiet(), quietMs).unref();
  }

  /** /openapi/v3: every group-version's document URL, with its hash. */
  async root(): Promise<OpenApiIndex> {
    const wanted = this.stamp();
    while (!this.v3Root || !covers(this.v3Root.stamp, wanted)) await this.rebuild();
    return this.v3Root.index;
  }

  /** The Swagger 2.0 document of everything served, with the backends' specs merged in. */
  async swagger(): Promise<SerializedDocument> {
    const wanted = this.stamp();
    while (!this.v2 || !covers(this.v2.stamp, wanted)) {
      this.v2Wanted = true;
      await this.rebuild();
    }
    return this.v2.doc;
  }

  /** The OpenAPI v3 document of a group-version (by its path below /openapi/v3/), or undefined when none is served. */
  groupVersion(key: string): SerializedDocument | undefined {
    const gv = this.currentLayout().groupVersions.find((g) => g.key === key);
    return gv && this.v3Of(gv);
  }

  private rebuild(): Promise<void> {
    this.running ??= this.build().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Rebuilds everything, the Swagger document too, once the sources have been quiet for `quietMs`. */
  private whenQuiet(): void {
    const quietFor = performance.now() - this.changedAt;
    if (quietFor < quietMs) {
      this.quiet = setTimeout(() => this.whenQuiet(), quietMs - quietFor).unref();
      return;
    }
    this.quiet = undefined;
    if (this.running) {
      // A build a request started, perhaps from older sources: look again after it.
      const again = () => this.refresh();
      void this.running.then(again, again);
      return;
    }
    this.v2Wanted = true;
    this.rebuild().catch(() => undefined);
  }

  private async build(): Promise<void> {
    await nextTurn();
    const { stamp, groupVersions } = this.currentLayout();
    const slice = slicer();
    for (const gv of groupVersions) {
      this.v3Of(gv);
      if (!gv.remote) this.entryOf(gv).v2 ??= swaggerPiece(gv.resources);
      await slice();
    }
    const keys = new Set(groupVersions.map((gv) => gv.key));
    for (const key of this.entries.keys()) if (!keys.has(key)) this.entries.delete(key);
    const paths = Object.fromEntries(
      groupVersions.flatMap((gv) => {
        const doc = this.v3Of(gv);
        return doc ? [[gv.key, { serverRelativeURL: `/openapi/v3/${gv.key}?hash=${doc.hash}` }]] : [];
      }),
    );
    const json = JSON.stringify({ paths: sortedByKey(paths) });
    const unchanged = this.v3Root?.index.json === json;
    this.v3Root = { stamp, index: unchanged ? this.v3Root!.index : { json, hash: contentHash(json), lastModified: new Date() } };

    if (!this.v2Wanted) return;
    this.v2Wanted = false;
    const pieces = groupVersions.flatMap((gv) => (gv.remote ? [] : [this.entryOf(gv).v2!]));
    const { remoteOpenAPI } = this.sources();
    const remotes = groupVersions.flatMap((gv) => {
      const spec = gv.remote && remoteOpenAPI?.swagger(gv.remote);
      return spec ? [spec as SwaggerSpec] : [];
    });
    const { parts, hash } = await assembleSwagger(pieces, remotes, this.info());
    this.v2 = { stamp, doc: serializedParts(parts, hash, 'v2') };
  }

  /** The group-version's v3 document: kept while its inputs are the same, else built now. */
  private v3Of(gv: GroupVersion): SerializedDocument | undefined {
    const entry = this.entryOf(gv);
    if (entry.v3) return entry.v3;
    if (!gv.remote) return (entry.v3 = serialize(openapiV3Document(gv.resources, this.info()), 'v3'));
    const remote = this.sources().remoteOpenAPI?.v3Document(gv.remote);
    if (remote) entry.v3 = serializedJson(remote.json, remote.hash, 'v3');
    return entry.v3;
  }

  /** The kept entry of the group-version, or a new empty one when what it is built from changed. */
  private entryOf(gv: GroupVersion): Entry {
    const inputs = gv.remote ? [gv.remote, this.sources().remoteOpenAPI?.v3Document(gv.remote)] : gv.resources.flatMap((r) => [r.type, r.version]);
    const kept = this.entries.get(gv.key);
    if (kept && kept.inputs.length === inputs.length && kept.inputs.every((input, i) => input === inputs[i])) return kept;
    const entry: Entry = { inputs };
    this.entries.set(gv.key, entry);
    return entry;
  }

  /** The group-versions served now, in kube's order (recomputed only when a source changed). */
  private currentLayout(): { stamp: Stamp; groupVersions: GroupVersion[] } {
    const stamp = this.stamp();
    if (this.layout && sameStamp(this.layout.stamp, stamp)) return this.layout;
    const { registry, apiServices } = this.sources();
    const groupVersions = servedGroups(registry, apiServices?.remotes()).flatMap((group) =>
      group.versions.map(({ version, resources, remote }) => ({
        key: group.name ? `apis/${group.name}/${version}` : `api/${version}`,
        resources,
        ...(remote ? { remote } : {}),
      })),
    );
    this.layout = { stamp, groupVersions };
    return this.layout;
  }

  private stamp(): Stamp {
    const { registry, apiServices, remoteOpenAPI } = this.sources();
    return [registry.generation, apiServices?.generation ?? -1, remoteOpenAPI?.generation ?? -1];
  }
}

function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.every((g, i) => g === b[i]);
}

/** Whether what was built at `built` reflects every change up to `wanted` (generations only grow). */
function covers(built: Stamp, wanted: Stamp): boolean {
  return built.every((g, i) => g >= wanted[i]!);
}
