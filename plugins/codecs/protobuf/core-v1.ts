/*
 * core/v1 Namespace <-> JSON, in the shape kube's encoding/json gives the Go types: `metadata`, `spec` and `status`
 * are structs and so always present (`"spec": {}`); `phase`, `reason`, `message` and the finalizer/condition lists
 * are omitempty; a condition's `type` and `status` are always written and its `lastTransitionTime` (a non-pointer
 * Time) is null when zero.
 */
import { has, jsonArray, jsonObject, jsonString, jsonStrings, list, str, sub, type JsonObject, type Msg } from './json-shape.js';
import { objectMetaFromJSON, objectMetaToJSON, timeFromJSON, timeToJSON } from './meta-v1.js';

function namespaceConditionToJSON(c: Msg): JsonObject {
  const out: JsonObject = { type: str(c, 'type'), status: str(c, 'status'), lastTransitionTime: timeToJSON(sub(c, 'lastTransitionTime')) };
  if (str(c, 'reason')) out.reason = str(c, 'reason');
  if (str(c, 'message')) out.message = str(c, 'message');
  return out;
}

function namespaceConditionFromJSON(v: unknown, path: string): Msg {
  const j = jsonObject(v, path) ?? {};
  return {
    type: jsonString(j.type, `${path}.type`),
    status: jsonString(j.status, `${path}.status`),
    lastTransitionTime: timeFromJSON(j.lastTransitionTime, `${path}.lastTransitionTime`),
    reason: jsonString(j.reason, `${path}.reason`),
    message: jsonString(j.message, `${path}.message`),
  };
}

/** `Namespace` message -> JSON body (without apiVersion/kind). */
export function namespaceToJSON(m: Msg): JsonObject {
  const spec: JsonObject = {};
  const finalizers = list<string>(sub(m, 'spec'), 'finalizers');
  if (finalizers.length) spec.finalizers = [...finalizers];
  const statusMsg = sub(m, 'status');
  const status: JsonObject = {};
  if (str(statusMsg, 'phase')) status.phase = str(statusMsg, 'phase');
  const conditions = list<Msg>(statusMsg, 'conditions');
  if (conditions.length) status.conditions = conditions.map(namespaceConditionToJSON);
  return { metadata: objectMetaToJSON(has(m, 'metadata') ? sub(m, 'metadata') : undefined), spec, status };
}

/** JSON Namespace -> message: metadata, spec and status always written, as Go's marshaller does. */
export function namespaceFromJSON(j: JsonObject): Msg {
  const spec = jsonObject(j.spec, 'spec') ?? {};
  const status = jsonObject(j.status, 'status') ?? {};
  return {
    metadata: objectMetaFromJSON(j.metadata),
    spec: { finalizers: jsonStrings(spec.finalizers, 'spec.finalizers') },
    status: {
      phase: jsonString(status.phase, 'status.phase'),
      conditions: jsonArray(status.conditions, 'status.conditions').map((c, i) => namespaceConditionFromJSON(c, `status.conditions[${i}]`)),
    },
  };
}
