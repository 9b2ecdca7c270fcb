import type protobuf from 'protobufjs';
import { KubeTypes } from './schema.js';
import type { JsonObject, Msg } from './json-shape.js';
import { deleteOptionsFromJSON, deleteOptionsToJSON } from './meta-v1.js';
import { namespaceFromJSON, namespaceToJSON } from './core-v1.js';

/** One kind with a protobuf encoding: its message type and the conversions to and from kube's JSON shape. */
export interface ProtobufKind {
  readonly type: protobuf.Type;
  /** Decoded message -> JSON object without apiVersion/kind. */
  toJSON(message: Msg): JsonObject;
  /** JSON object -> plain message object ready for `type.encode`. */
  fromJSON(object: JsonObject): Msg;
}

const namespaceKind: ProtobufKind = { type: KubeTypes.Namespace, toJSON: namespaceToJSON, fromJSON: namespaceFromJSON };
const deleteOptionsKind: ProtobufKind = { type: KubeTypes.DeleteOptions, toJSON: deleteOptionsToJSON, fromJSON: deleteOptionsFromJSON };

/**
 * The message for an apiVersion/kind, or undefined. kube registers meta/v1 DeleteOptions in every group version
 * (metav1.AddToGroupVersion), so `DeleteOptions` is accepted under any apiVersion. Custom resources (and aggregated
 * APIs) have no protobuf encoding in Kubernetes either: clients fall back to JSON for them.
 */
export function protobufKind(apiVersion: string, kind: string): ProtobufKind | undefined {
  if (kind === 'DeleteOptions') return deleteOptionsKind;
  if (apiVersion === 'v1' && kind === 'Namespace') return namespaceKind;
  return undefined;
}

/** Whether objects of this apiVersion/kind can be read and written as Kubernetes protobuf. */
export function supportsKubeProtobuf(apiVersion: string, kind: string): boolean {
  return protobufKind(apiVersion, kind) !== undefined;
}
