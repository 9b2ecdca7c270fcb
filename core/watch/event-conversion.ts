import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import type { ObjectConverter } from '../contracts/object-converter.js';
import { converterFor } from '../conversion/converters.js';
import { listToRequestVersion } from '../conversion/versioned-objects.js';
import type { CacheEvent } from './cache-event.js';

/** A number per converter, so that a changed CRD (a new converter) does not reuse the old one's conversions. */
const converterIds = new WeakMap<ObjectConverter, number>();
let nextConverterId = 1;

/**
 * Converts watch events for one API version through a conversion webhook: each event once per converter and
 * version, shared by every watch of that version (kube-apiserver keeps one watch cache per version for the same
 * effect). The events a watch needs and nobody converted yet go to the webhook in one ConversionReview.
 */
export class EventConversion {
  private readonly key: string;

  constructor(
    private readonly rt: ResourceType,
    private readonly version: string,
  ) {
    const converter = converterFor(rt);
    let id = converterIds.get(converter);
    if (id === undefined) converterIds.set(converter, (id = nextConverterId++));
    this.key = `${id}|${version}`;
  }

  /** Identifies the conversion in encoding memo keys. */
  get id(): string {
    return this.key;
  }

  /**
   * Resolves once every event's object is converted; rejects with the conversion's failure. A failed conversion is
   * forgotten, so a later watch asks the webhook again.
   */
  prepare(events: readonly CacheEvent[]): Promise<void> | undefined {
    const waits: Promise<KubeObject>[] = [];
    const missing: CacheEvent[] = [];
    for (const e of events) {
      const memo = e.converted?.get(this.key);
      if (memo === undefined) missing.push(e);
      else if (memo instanceof Promise) waits.push(memo);
    }
    if (missing.length) {
      const batch = Promise.resolve(listToRequestVersion(this.rt, this.version, missing.map((e) => e.object)));
      missing.forEach((e, i) => {
        const memo = (e.converted ??= new Map());
        const one = batch.then((objects) => {
          memo.set(this.key, objects[i]!);
          return objects[i]!;
        });
        one.catch(() => memo.delete(this.key));
        memo.set(this.key, one);
        waits.push(one);
      });
    }
    return waits.length ? Promise.all(waits).then(() => undefined) : undefined;
  }

  /** The converted object of an event `prepare` has finished with. */
  object(e: CacheEvent): KubeObject {
    const memo = e.converted?.get(this.key);
    if (memo === undefined || memo instanceof Promise) throw new Error(`watch event ${e.key}@${e.revision} encoded before its conversion`);
    return memo;
  }
}
