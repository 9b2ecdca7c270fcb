import { goTypes as t, type GoStructType, type GoType } from '../lib/go/json-decoding.js';
import { parseMicroTimeOrError } from '../lib/go/micro-time.js';

/** metav1.Time: a string (null leaves it unset), decoded by its own UnmarshalJSON. */
export const goTime = t.unmarshaler('v1.Time', () => t.string());

/** metav1.MicroTime: a string in RFC3339Micro (six fraction digits), or Go's parse error. */
export const goMicroTime = t.unmarshaler('v1.MicroTime', (value) => {
  if (typeof value !== 'string') return t.string();
  const parsed = parseMicroTimeOrError(value);
  return typeof parsed === 'string' ? parsed : undefined;
});

/** k8s.io/apimachinery meta/v1 ObjectMeta, the `metadata` of every built-in kind. */
export const objectMetaGoType: GoStructType = t.struct('v1.ObjectMeta', {
  name: t.string(),
  generateName: t.string(),
  namespace: t.string(),
  selfLink: t.string(),
  uid: t.string('types.UID'),
  resourceVersion: t.string(),
  generation: t.int64,
  creationTimestamp: goTime,
  deletionTimestamp: goTime,
  deletionGracePeriodSeconds: t.int64,
  labels: t.map(t.string()),
  annotations: t.map(t.string()),
  ownerReferences: t.slice(
    t.struct('v1.OwnerReference', {
      apiVersion: t.string(),
      kind: t.string(),
      name: t.string(),
      uid: t.string('types.UID'),
      controller: t.bool,
      blockOwnerDeletion: t.bool,
    }),
  ),
  finalizers: t.slice(t.string()),
  managedFields: t.slice(
    t.struct('v1.ManagedFieldsEntry', {
      manager: t.string(),
      operation: t.string('v1.ManagedFieldsOperationType'),
      apiVersion: t.string(),
      time: goTime,
      fieldsType: t.string(),
      fieldsV1: t.json('v1.FieldsV1'),
      subresource: t.string(),
    }),
  ),
});

/**
 * A kind's Go struct: the TypeMeta every kind inlines (`apiVersion`, `kind`), its ObjectMeta `metadata`, then its own
 * fields.
 */
export function kindGoType(name: string, fields: Record<string, GoType>): GoStructType {
  return t.struct(name, { apiVersion: t.string(), kind: t.string(), metadata: objectMetaGoType, ...fields });
}

/** meta/v1 Condition (status conditions of ValidatingAdmissionPolicies, Services, …). */
export const conditionGoType: GoType = t.struct('v1.Condition', {
  type: t.string(),
  status: t.string('v1.ConditionStatus'),
  observedGeneration: t.int64,
  lastTransitionTime: goTime,
  reason: t.string(),
  message: t.string(),
});

/** meta/v1 LabelSelector. */
export const labelSelectorGoType: GoType = t.struct('v1.LabelSelector', {
  matchLabels: t.map(t.string()),
  matchExpressions: t.slice(t.struct('v1.LabelSelectorRequirement', { key: t.string(), operator: t.string('v1.LabelSelectorOperator'), values: t.slice(t.string()) })),
});
