// The Gadget kind, version v1beta1: an older, deprecated version of the kind in gadget-v1-types.ts.
//
// +groupName=roundtrip.example.com
// +versionName=v1beta1

import type { ObjectMeta } from '../../../../index.js';

/** What the gadget should be, as v1beta1 said it. */
export interface GadgetSpec {
  /** How the gadget runs. */
  mode?: 'fast' | 'slow';
  /** The ports, by number. */
  ports?: number[];
}

/** A Gadget, as v1beta1 describes it. */
// +kubebuilder:object:root=true
// +kubebuilder:deprecatedversion:warning="roundtrip.example.com/v1beta1 Gadget is deprecated; use v1"
export interface Gadget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: GadgetSpec;
}
