// The Widget kind, version v1beta1: still served, with a deprecation warning. See widget-types.ts.
//
// +groupName=gen.example.com
// +versionName=v1beta1

import type { Int32, ObjectMeta } from '../../index.js';

/** What the widget should be. */
export interface WidgetSpec {
  /** The widget's color. */
  color?: string;
  /** How many copies of the widget run. */
  replicas?: Int32;
}

/** A Widget, as v1beta1 describes it. */
// +kubebuilder:object:root=true
// +kubebuilder:deprecatedversion:warning="gen.example.com/v1beta1 Widget is deprecated; use gen.example.com/v1 Widget"
// +kubebuilder:subresource:status
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
  status?: { ready?: boolean };
}
