import type { RequestScope } from './request-scope.js';
import type { KubeObject } from '../registry/resource-type.js';
import type { Status } from '../errors/status.js';
import type { CacheEvent } from '../watch/cache-event.js';
import { encodedOnce } from '../watch/cache-event.js';
import { apiVersionOf } from '../registry/resource-type.js';
import { toTable } from '../table/table-convertor.js';
import { includeObject, metaVersionOf, partialMetadata, tableColumns, toVersion } from './respond.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** The annotation on the BOOKMARK that ends a streaming list's initial events. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/**
 * Encodes watch events as JSON lines in the watch's representation (the object in the addressed version, a Table, or
 * PartialObjectMetadata). An event shared by many watches is encoded once per representation and event type.
 */
export class WatchEventEncoder {
  /** Identifies everything the encoding depends on besides the event: watches with equal keys share encodings. */
  private readonly representation: string;
  /** Memo keys per event type, built once (a key built per event would be hashed again for every watcher). */
  private readonly keys: Record<WatchEventType, string>;
  /** Only Table watches read includeObject (kube ignores it otherwise). */
  private readonly include: ReturnType<typeof includeObject>;
  private readonly metaVersion: string;

  constructor(private readonly scope: RequestScope) {
    this.include = scope.negotiated.as === 'Table' ? includeObject(scope) : 'Metadata';
    this.metaVersion = metaVersionOf(scope.negotiated);
    this.representation = `${scope.version}|${scope.negotiated.as}|${this.metaVersion}|${this.include}`;
    this.keys = { ADDED: `${this.representation}|ADDED`, MODIFIED: `${this.representation}|MODIFIED`, DELETED: `${this.representation}|DELETED` };
  }

  event(type: WatchEventType, e: CacheEvent): Buffer {
    return encodedOnce(e, this.keys[type], () => line(type, this.present(e.object)));
  }

  /** A BOOKMARK: an object of the watched kind carrying only its resourceVersion (and the initial-events-end mark). */
  bookmark(revision: number, initialEventsEnd = false): Buffer {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEventsEnd) metadata['annotations'] = { [initialEventsEndAnnotation]: 'true' };
    const apiVersion = `meta.k8s.io/${this.metaVersion}`;
    switch (this.scope.negotiated.as) {
      case 'Table':
        return line('BOOKMARK', { kind: 'Table', apiVersion, metadata: { resourceVersion: String(revision) }, columnDefinitions: [], rows: [] });
      case 'PartialObjectMetadata':
        return line('BOOKMARK', { kind: 'PartialObjectMetadata', apiVersion, metadata });
      default:
        return line('BOOKMARK', { kind: this.scope.rt.names.kind, apiVersion: apiVersionOf(this.scope.rt.group, this.scope.version), metadata });
    }
  }

  error(status: Status): Buffer {
    return line('ERROR', status);
  }

  private present(obj: KubeObject): unknown {
    const versioned = toVersion(obj, this.scope);
    switch (this.scope.negotiated.as) {
      case 'Table':
        return toTable([versioned], tableColumns(this.scope), { includeObject: this.include, metaVersion: metaVersionOf(this.scope.negotiated) });
      case 'PartialObjectMetadata':
        return partialMetadata(versioned, this.metaVersion);
      default:
        return versioned;
    }
  }
}

function line(type: string, object: unknown): Buffer {
  return Buffer.from(JSON.stringify({ type, object }) + '\n');
}
