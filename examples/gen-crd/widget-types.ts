// The Widget kind, version v1 (the storage version), written as TypeScript with controller-gen's markers. Its CRD,
// with the older versions in widget-v1beta1-types.ts and widget-v1alpha1-types.ts, is generated into
// gen.example.com_widgets.yaml by `npm run gen:examples` (kapi gen crd on the three files). This file uses every
// marker kapi gen crd knows.
//
// +groupName=gen.example.com
// +versionName=v1

import type { Int32, Int64, IntOrString, ObjectMeta } from '../../index.js';

/** The outline of a widget. */
export type Shape = 'round' | 'square' | 'hexagonal';

/** A port a widget listens on. */
export interface WidgetPort {
  /** The port's name, unique among the widget's ports. */
  name: string;
  /**
   * The port number.
   * +kubebuilder:validation:Minimum=1
   * +kubebuilder:validation:Maximum=65535
   */
  port: Int32;
  // The protocol of the port.
  // +kubebuilder:validation:Enum=TCP;UDP
  // +kubebuilder:default=TCP
  protocol?: string;
}

/** A label selector, replaced as a whole by server-side apply. */
// +structType=atomic
export interface WidgetSelector {
  /** Labels the selected objects have. */
  matchLabels?: Record<string, string>;
}

/**
 * What the widget should be.
 * +kubebuilder:validation:XValidation:rule="!has(self.maxReplicas) || self.replicas <= self.maxReplicas",message="replicas must not exceed maxReplicas",fieldPath=".replicas",reason=FieldValueForbidden
 */
export interface WidgetSpec {
  /**
   * The widget's color, in lower-case letters.
   * +kubebuilder:validation:MinLength=3
   * +kubebuilder:validation:MaxLength=12
   * +kubebuilder:validation:Pattern=`^[a-z]+$`
   * +kubebuilder:validation:XValidation:rule="self != 'black'",messageExpression="'color ' + self + ' is not allowed'"
   * +kubebuilder:example=blue
   */
  color: string;
  /** The widget's outline. */
  // +kubebuilder:default=round
  shape?: Shape;
  /**
   * How many copies of the widget run.
   * +kubebuilder:default=1
   * +kubebuilder:validation:Minimum=0
   * +kubebuilder:validation:Maximum=10
   */
  replicas?: Int32;
  /** The most copies the widget may run. */
  maxReplicas?: Int32;
  /**
   * The widget's weight in kilograms: more than 0, less than 100, in steps of a half.
   * +kubebuilder:validation:Minimum=0
   * +kubebuilder:validation:ExclusiveMinimum=true
   * +kubebuilder:validation:Maximum=100
   * +kubebuilder:validation:ExclusiveMaximum=true
   * +kubebuilder:validation:MultipleOf=0.5
   */
  weight?: number;
  /**
   * The widget's size, an even integer.
   * +kubebuilder:validation:Type=integer
   * +kubebuilder:validation:MultipleOf=2
   */
  size?: number;
  /**
   * The budget in cents; it may only grow.
   * +kubebuilder:validation:XValidation:rule="!oldSelf.hasValue() || self >= oldSelf.value()",message="budget must not decrease",optionalOldSelf=true
   */
  budget?: Int64;
  /** The port to serve, by number or by name. */
  servePort?: IntOrString;
  /**
   * The target, by number or by name.
   * +kubebuilder:validation:XIntOrString
   */
  target?: string;
  /**
   * Tags, each at most once.
   * +listType=set
   * +kubebuilder:validation:MinItems=1
   * +kubebuilder:validation:MaxItems=3
   * +kubebuilder:validation:UniqueItems=false
   */
  tags?: string[];
  /**
   * The ports, merged by name.
   * +listType=map
   * +listMapKey=name
   */
  ports?: WidgetPort[];
  /**
   * Labels of the widget's parts.
   * +mapType=granular
   * +kubebuilder:validation:MinProperties=1
   * +kubebuilder:validation:MaxProperties=2
   */
  partLabels?: Record<string, string>;
  /** Which objects the widget watches. */
  // +kubebuilder:default={matchLabels: {app: widget}}
  selector?: WidgetSelector;
  /**
   * When the widget was built.
   * +kubebuilder:validation:Format=date-time
   */
  builtAt?: string;
  /**
   * An object the widget creates.
   * +kubebuilder:validation:XEmbeddedResource
   * +kubebuilder:pruning:PreserveUnknownFields
   */
  template?: { apiVersion?: string; kind?: string; metadata?: ObjectMeta };
  /** Free-form settings, kept as given. */
  settings?: unknown;
  /** A note; null clears it. */
  note?: string | null;
  /**
   * The widget's owner, required although TypeScript lets it out.
   * +required
   */
  owner?: string;
  /**
   * The widget's maker, required as well.
   * +kubebuilder:validation:Required
   */
  maker?: string;
  /**
   * Whether the widget is paused; the API lets it out.
   * +optional
   * +nullable
   */
  paused: boolean;
  /**
   * A comment, optional as well.
   * +kubebuilder:validation:Optional
   */
  comment: string;
}

/** What the widget is. */
export interface WidgetStatus {
  /** How many copies run. */
  replicas?: Int32;
  /** The label selector of the copies, for the scale subresource. */
  selector?: string;
  /** Whether every copy is ready. */
  ready?: boolean;
}

/**
 * A Widget is an example resource of kapi gen crd.
 */
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Namespaced,shortName=wd;wdg,categories={all,examples},singular=widget
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Color",type=string,JSONPath=`.spec.color`,description="The widget's color"
// +kubebuilder:printcolumn:name="Replicas",type=integer,format=int32,JSONPath=".spec.replicas"
// +kubebuilder:printcolumn:name="Shape",type=string,JSONPath=".spec.shape",priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
// +kubebuilder:selectablefield:JSONPath=".spec.color"
// +kubebuilder:storageversion
export interface Widget {
  /** APIVersion defines the versioned schema of this representation of an object. */
  apiVersion?: string;
  /** Kind is a string value representing the REST resource this object represents. */
  kind?: string;
  metadata?: ObjectMeta;
  spec: WidgetSpec;
  status?: WidgetStatus;
}

/** A list of Widgets: a list type, which gen crd skips (the CRD names WidgetList itself). */
// +kubebuilder:object:root=true
export interface WidgetList {
  apiVersion?: string;
  kind?: string;
  items: Widget[];
}
