import { messageFromJSON, messageToJSON } from './converter.js';
import type { JsonObject, Msg } from './json-shape.js';
import { KubeTypes } from './schema.js';

/** `ObjectMeta` message (undefined: absent) -> JSON, as encoding/json writes metav1.ObjectMeta. */
export function objectMetaToJSON(m: Msg | undefined): JsonObject {
  return messageToJSON(KubeTypes.ObjectMeta, m);
}

/** JSON metadata -> `ObjectMeta` message, as Go's marshaller writes it. */
export function objectMetaFromJSON(json: unknown): Msg {
  return messageFromJSON(KubeTypes.ObjectMeta, json);
}

/** `ListMeta` message (undefined: absent) -> JSON. */
export function listMetaToJSON(m: Msg | undefined): JsonObject {
  return messageToJSON(KubeTypes.ListMeta, m);
}

/** JSON list metadata -> `ListMeta` message. */
export function listMetaFromJSON(json: unknown): Msg {
  return messageFromJSON(KubeTypes.ListMeta, json);
}
