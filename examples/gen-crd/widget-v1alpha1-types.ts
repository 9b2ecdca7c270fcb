// The Widget kind, version v1alpha1: no longer served, kept in the CRD. See widget-types.ts.
//
// +groupName=gen.example.com
// +versionName=v1alpha1

import type { ObjectMeta } from '../../index.js';

/** A Widget, as v1alpha1 described it. */
// +kubebuilder:object:root=true
// +kubebuilder:unservedversion
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { color?: string };
}
