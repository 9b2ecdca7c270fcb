/**
 * The protobuf description of one CRD version: what `kapi gen proto` renders as a `.proto` file and what the server
 * converts custom resources with, so both always agree.
 */

/** How a JSON value is carried in protobuf. */
export type Shape =
  | { readonly kind: 'string' | 'int64' | 'double' | 'bool' }
  /** JSON text in a `bytes` field (preserve-unknown-fields, embedded resources, untyped values), like RawExtension. */
  | { readonly kind: 'json' }
  /** `k8s.io.apimachinery.pkg.util.intstr.IntOrString` (x-kubernetes-int-or-string). */
  | { readonly kind: 'intOrString' }
  /** `k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta` / `ListMeta`. */
  | { readonly kind: 'objectMeta' | 'listMeta' }
  /** A JSON object with declared properties: a message of this file. */
  | { readonly kind: 'message'; readonly message: string }
  /** A list or map nested in a list or map: a one-field message of this file whose `items` field holds the value. */
  | { readonly kind: 'wrapper'; readonly message: string; readonly inner: ListShape | MapShape }
  /** A `repeated` field (never nested directly: a nested list or map is wrapped). */
  | ListShape
  /** A `map<string, …>` field. */
  | MapShape;

export interface ListShape {
  readonly kind: 'list';
  readonly item: Shape;
}

export interface MapShape {
  readonly kind: 'map';
  readonly value: Shape;
}

export interface ProtoField {
  /** The field's name in the .proto (a valid identifier, unique in its message). */
  readonly name: string;
  /** The JSON property it carries. */
  readonly jsonName: string;
  readonly number: number;
  readonly shape: Shape;
  /** The schema's description, if any. */
  readonly description?: string;
}

export interface ProtoMessage {
  /** The message name within the file's package. */
  readonly name: string;
  /**
   * `resource`: the custom resource (schema path `$`); `list`: its list; `object`: an object of the schema;
   * `wrapper`: one element of a list or map that is itself a list or map, in its `items` field.
   */
  readonly role: 'resource' | 'list' | 'object' | 'wrapper';
  /** The schema path the message describes (`$`, `$.spec`, `$.spec.ports[]`; '' for the list). */
  readonly path: string;
  readonly fields: readonly ProtoField[];
  /** Numbers (and names) of fields the schema no longer has: never given to another field. */
  readonly reserved: readonly { readonly number: number; readonly name?: string }[];
  /** The resource's description (a nested object's is its field's). */
  readonly description?: string;
}

export interface ProtoFile {
  /** The package (derived from group and version). */
  readonly package: string;
  readonly group: string;
  readonly version: string;
  /** The custom resource's message (`Widget`) and its list's (`WidgetList`). */
  readonly kind: string;
  readonly listKind: string;
  /** Every message of the file, the kind's first and its list's second. */
  readonly messages: readonly ProtoMessage[];
  /** Where this file came from, for its header comment (e.g. the CRD's name). */
  readonly source?: string;
}
