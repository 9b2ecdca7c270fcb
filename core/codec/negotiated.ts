import type { Codec } from '../contracts/codec.js';

/** What a response should be: its codec and which representation of the resource. */
export interface Negotiated {
  codec: Codec;
  /**
   * `object`: the resource as stored; `Table` / `PartialObjectMetadata`: meta.k8s.io conversions (a list answers
   * `PartialObjectMetadata` with a PartialObjectMetadataList; `as=PartialObjectMetadataList` negotiates to it too).
   */
  as: 'object' | 'Table' | 'PartialObjectMetadata';
  /** The meta.k8s.io version of a Table / PartialObjectMetadata (undefined for `object`). */
  metaVersion?: 'v1' | 'v1beta1';
  /** The Content-Type to answer with. */
  contentType: string;
}
