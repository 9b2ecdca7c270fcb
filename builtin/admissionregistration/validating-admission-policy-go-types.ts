import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { conditionGoType, kindGoType } from '../../schemas/object-meta-go-type.js';
import { matchConditionGoType, matchResourcesGoType, paramKindGoType, paramRefGoType, variableGoType } from './admission-registration-go-types.js';

/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy as kube's decoder sees it. */
export const validatingAdmissionPolicyGoType: GoStructType = kindGoType('v1.ValidatingAdmissionPolicy', {
  spec: t.struct('v1.ValidatingAdmissionPolicySpec', {
    paramKind: paramKindGoType,
    matchConstraints: matchResourcesGoType,
    validations: t.slice(
      t.struct('v1.Validation', { expression: t.string(), message: t.string(), reason: t.string('v1.StatusReason'), messageExpression: t.string() }),
    ),
    failurePolicy: t.string('v1.FailurePolicyType'),
    auditAnnotations: t.slice(t.struct('v1.AuditAnnotation', { key: t.string(), valueExpression: t.string() })),
    matchConditions: t.slice(matchConditionGoType),
    variables: t.slice(variableGoType),
  }),
  status: t.struct('v1.ValidatingAdmissionPolicyStatus', {
    observedGeneration: t.int64,
    typeChecking: t.struct('v1.TypeChecking', {
      expressionWarnings: t.slice(t.struct('v1.ExpressionWarning', { fieldRef: t.string(), warning: t.string() })),
    }),
    conditions: t.slice(conditionGoType),
  }),
});

/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding as kube's decoder sees it. */
export const validatingAdmissionPolicyBindingGoType: GoStructType = kindGoType('v1.ValidatingAdmissionPolicyBinding', {
  spec: t.struct('v1.ValidatingAdmissionPolicyBindingSpec', {
    policyName: t.string(),
    paramRef: paramRefGoType,
    matchResources: matchResourcesGoType,
    validationActions: t.slice(t.string('v1.ValidationAction')),
  }),
});
