/**
 * Applies what a JSONPatch mutation evaluated to (kube's jsonPatcher): each JSONPatch value becomes an RFC 6902
 * operation (`from` only when set, `value` only when set, `Object…` values type-name checked first), and the
 * operations are applied as json-patch v4 applies them. A failing `test` leaves the object as it was.
 */
import { JsonPatchVal } from '../../../lib/cel/k8s-jsonpatch.js';
import { ObjectVal, typeNameMismatches } from '../../../lib/cel/k8s-object-val.js';
import { celToJson, NotJsonError } from '../../../lib/cel/json-native.js';
import type { Val } from '../../../lib/cel/values.js';
import type { KubeObject } from '../../../core/contracts/resource-type.js';
import { applyWebhookPatch, JsonPatchError, JsonPatchTestFailed } from '../../webhook/webhook-json-patch.js';
import type { MutationResult } from './mutation-result.js';

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

export function applyJsonPatchMutation(result: Val, object: KubeObject): MutationResult {
  if (!Array.isArray(result)) return { error: 'type mismatch: JSONPatchType.expression should evaluate to array' };
  const ops: Operation[] = [];
  for (const v of result) {
    if (!(v instanceof JsonPatchVal)) return { error: 'type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch' };
    const op: Operation = { op: v.op, path: v.path };
    if (v.from) op.from = v.from;
    if (v.value !== undefined) {
      if (v.value instanceof ObjectVal) {
        const mismatches = typeNameMismatches(v.value);
        if (mismatches.length) return { error: `type mismatch: ${mismatches.join('\n')}` };
      }
      try {
        op.value = celToJson(v.value);
      } catch (e) {
        if (!(e instanceof NotJsonError)) throw e;
        return { error: `JSONPath valueExpression evaluated to a type that could not marshal to JSON: ${e.message}` };
      }
    }
    ops.push(op);
  }
  try {
    // No operations (a mutation that finds nothing to do): the object as it is, without a copy.
    return { object: ops.length ? (applyWebhookPatch(object as Record<string, unknown>, ops) as KubeObject) : object };
  } catch (e) {
    if (e instanceof JsonPatchTestFailed) return { object };
    if (e instanceof JsonPatchError) return { error: `JSON Patch: ${e.message}` };
    throw e;
  }
}
