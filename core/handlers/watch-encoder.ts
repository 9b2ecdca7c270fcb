import type { ResourceScope } from './request-scope.js';
import type { KubeObject } from '../contracts/resource-type.js';
import type { Status } from '../contracts/status.js';
import type { CacheEvent } from '../watch/cache-event.js';
import { batchEncodedOnce, encodedOnce } from '../watch/cache-event.js';
import { apiVersionOf } from '../contracts/resource-type.js';
import { toTable } from '../table/table-convertor.js';
import { includeObject, metaVersionOf, partialMetadata, tableColumns } from './respond.js';
import { converterFor } from '../conversion/converters.js';
import { toRequestVersion } from '../conversion/versioned-objects.js';
import { EventConversion } from '../watch/event-conversion.js';
import type { WatchFraming } from '../contracts/codec.js';
import type { WatchEventCounter } from '../metrics/watch-event-counter.js';
import type { StreamFraming } from '../server/streamed-response.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** The annotation on the BOOKMARK that ends a streaming list's initial events. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/**
 * Encodes watch events as the negotiated codec frames them (JSON lines, length-prefixed protobuf, a CBOR sequence), in
 * the watch's representation (the object in the addressed version, a Table, or PartialObjectMetadata). An event shared
 * by many watches is encoded once per media type, representation and event type, and a batch of events handed to many
 * watches once per representation and framing. With a conversion webhook, events must be `prepare`d (converted, once
 * per event and version) before they are encoded.
 */
export class WatchEventEncoder {
  /** Identifies everything the encoding depends on besides the event: watches with equal keys share encodings. */
  private readonly representation: string;
  /** Memo keys per event type, built once (a key built per event would be hashed again for every watcher). */
  private readonly keys: Record<WatchEventType, string>;
  private readonly framedKeys = new Map<StreamFraming, string>();
  /** Only Table watches read includeObject (kube ignores it otherwise). */
  private readonly include: ReturnType<typeof includeObject>;
  private readonly metaVersion: string;
  /** Set when objects convert through a webhook: the conversion every watch of this version shares. */
  private readonly conversion?: EventConversion;
  /** How the negotiated codec frames events (negotiation only picks codecs that have a stream form for watches). */
  private readonly framing: WatchFraming;
  /** Counts every event this watch sends (kube's apiserver_watch_events_total and _sizes). */
  private readonly sent?: WatchEventCounter;

  constructor(private readonly scope: ResourceScope) {
    this.framing = scope.negotiated.codec.stream!;
    this.include = scope.negotiated.as === 'Table' ? includeObject(scope) : 'Metadata';
    this.metaVersion = metaVersionOf(scope.negotiated);
    if (!converterFor(scope.rt).synchronous) this.conversion = new EventConversion(scope.rt, scope.version);
    if (scope.metrics) this.sent = scope.metrics.watchEventCounter(scope.rt.group, scope.version, scope.rt.names.plural);
    // The group too: resources stored as another (ResourceType.storedAs) share its cache events, in other versions.
    const version = this.conversion ? this.conversion.id : apiVersionOf(scope.rt.group, scope.version);
    this.representation = `${scope.negotiated.codec.mediaType}|${version}|${scope.negotiated.as}|${this.metaVersion}|${this.include}`;
    this.keys = { ADDED: `${this.representation}|ADDED`, MODIFIED: `${this.representation}|MODIFIED`, DELETED: `${this.representation}|DELETED` };
  }

  /** Whether events must be prepared (converted by a webhook) before `event` encodes them. */
  get converts(): boolean {
    return this.conversion !== undefined;
  }

  /** Converts the events' objects that are not converted yet (undefined: nothing to wait for). */
  prepare(events: readonly CacheEvent[]): Promise<void> | undefined {
    return this.conversion?.prepare(events);
  }

  event(type: WatchEventType, e: CacheEvent): Buffer {
    return this.counted(this.encoded(type, e));
  }

  /**
   * A batch of events the watch sees as they are (each visible, with its own type: the usual case), framed for the
   * response stream: encoded once per batch for all the watches of this representation and framing (the fan-out's
   * hot path, where a copy per watch would cost as much as the encoding).
   */
  batch(events: readonly CacheEvent[], streamFraming: StreamFraming | undefined): Buffer {
    for (const e of events) this.counted(this.encoded(e.type, e));
    const first = events[0]!;
    if (events.length === 1 && !streamFraming) return this.encoded(first.type, first);
    return batchEncodedOnce(events, streamFraming ? this.framedKey(streamFraming) : this.representation, () => {
      const bytes = events.length === 1 ? this.encoded(first.type, first) : Buffer.concat(events.map((e) => this.encoded(e.type, e)));
      return streamFraming ? streamFraming.frame(bytes) : bytes;
    });
  }

  /** The batch memo key of a stream framing, built once per watch for the same reason as `keys`. */
  private framedKey(streamFraming: StreamFraming): string {
    let key = this.framedKeys.get(streamFraming);
    if (key === undefined) this.framedKeys.set(streamFraming, (key = `${this.representation}|${streamFraming.name}`));
    return key;
  }

  private encoded(type: WatchEventType, e: CacheEvent): Buffer {
    return encodedOnce(e, this.keys[type], () => this.framing.encodeEvent(type, this.present(this.versioned(e))));
  }

  /** The event's object in the watched version: prepared by the webhook, or converted now (strategy None never waits). */
  private versioned(e: CacheEvent): KubeObject {
    return this.conversion ? this.conversion.object(e) : (toRequestVersion(this.scope.rt, this.scope.version, e.object) as KubeObject);
  }

  /** A BOOKMARK: an object of the watched kind carrying only its resourceVersion (and the initial-events-end mark). */
  bookmark(revision: number | string, initialEventsEnd = false): Buffer {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEventsEnd) metadata['annotations'] = { [initialEventsEndAnnotation]: 'true' };
    const apiVersion = `meta.k8s.io/${this.metaVersion}`;
    switch (this.scope.negotiated.as) {
      case 'Table':
        return this.counted(this.framing.encodeEvent('BOOKMARK', { kind: 'Table', apiVersion, metadata: { resourceVersion: String(revision) }, columnDefinitions: [], rows: [] }));
      case 'PartialObjectMetadata':
        return this.counted(this.framing.encodeEvent('BOOKMARK', { kind: 'PartialObjectMetadata', apiVersion, metadata }));
      default:
        return this.counted(this.framing.encodeEvent('BOOKMARK', { kind: this.scope.rt.names.kind, apiVersion: apiVersionOf(this.scope.rt.group, this.scope.version), metadata }));
    }
  }

  error(status: Status): Buffer {
    return this.counted(this.framing.encodeEvent('ERROR', status));
  }

  /** Each encoded event is one the watch sends (a watcher that filters an event out never encodes it). */
  private counted(event: Buffer): Buffer {
    this.sent?.count(event.length);
    return event;
  }

  /** The watch's media type for its Content-Type header (e.g. application/json, application/cbor-seq). */
  get contentType(): string {
    return this.framing.contentType;
  }

  private present(versioned: KubeObject): object {
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
