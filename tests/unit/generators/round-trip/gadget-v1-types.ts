// The Gadget kind, version v1 (the storage version): every feature of `kapi gen crd` that `kapi gen types` gives back
// as an equivalent type (tests/unit/generators/round-trip.test.ts): required and optional fields, enums from
// string-literal unions, int-or-string, an embedded resource, open records and objects, nested objects, arrays, maps,
// nullable fields, doc comments (`/** */` and `//`, several paragraphs), validation markers, which change no type.
//
// +groupName=roundtrip.example.com
// +versionName=v1

import type { Int32, Int64, IntOrString, ObjectMeta } from '../../../../index.js';

/** How a gadget runs. */
export type Mode = 'fast' | 'slow';

/** Something with a name. */
export interface Named {
  /** The name, unique among its kind. */
  name: string;
}

/** A port a gadget listens on. */
export interface GadgetPort extends Named {
  /**
   * The port number.
   * +kubebuilder:validation:Minimum=1
   * +kubebuilder:validation:Maximum=65535
   */
  port: Int32;
  // The protocol, TCP unless said.
  // +kubebuilder:default=TCP
  protocol?: 'TCP' | 'UDP';
}

/**
 * What the gadget should be.
 *
 * Its second paragraph.
 */
export interface GadgetSpec {
  /** How the gadget runs. */
  mode: Mode;
  // A ratio, any number.
  ratio?: number;
  enabled?: boolean;
  /**
   * The budget in cents.
   * +kubebuilder:validation:Minimum=0
   */
  budget?: Int64;
  /** A note; null clears it. */
  note?: string | null;
  /** The port to serve, by number or by name. */
  servePort?: IntOrString;
  /**
   * The ports, merged by name.
   * +listType=map
   * +listMapKey=name
   */
  ports?: GadgetPort[];
  /** Aliases, some of them empty. */
  aliases?: Array<string | null>;
  /** A grid of numbers. */
  matrix?: Int32[][];
  /** Labels of the gadget's parts. */
  labels?: Record<string, string>;
  /** Limits by resource name. */
  limits?: { [resource: string]: { max?: number; min?: number } };
  /** Settings, any values, kept as given. */
  settings?: Record<string, unknown>;
  /** Anything at all. */
  anything?: unknown;
  /** Known fields and others, all kept. */
  extra?: { known?: boolean; [field: string]: unknown };
  /**
   * An object the gadget creates.
   * +kubebuilder:validation:XEmbeddedResource
   */
  template?: { apiVersion: string; kind: string; metadata?: ObjectMeta; [field: string]: unknown };
  /** When it runs, if ever. */
  window?: { start: string; end?: string } | null;
  'dash-name'?: string;
}

/** A condition of the gadget. */
export interface GadgetCondition {
  /** The condition's type. */
  type: string;
  /** Whether it holds. */
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
}

/** What the gadget is. */
export interface GadgetStatus {
  /** The conditions, by type. */
  conditions?: GadgetCondition[];
  /** How many copies run. */
  replicas?: Int32;
}

/** A Gadget: every feature that survives the round trip. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
export interface Gadget {
  /** APIVersion defines the versioned schema of this representation of an object. */
  apiVersion?: string;
  /** Kind is a string value representing the REST resource this object represents. */
  kind?: string;
  metadata?: ObjectMeta;
  /** What the gadget should be. */
  spec: GadgetSpec;
  status?: GadgetStatus;
}
