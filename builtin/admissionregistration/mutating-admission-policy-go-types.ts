import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';
import { matchConditionGoType, matchResourcesGoType, paramKindGoType, paramRefGoType, variableGoType } from './admission-registration-go-types.js';

/** admissionregistration.k8s.io/v1 MutatingAdmissionPolicy as kube's decoder sees it. */
export const mutatingAdmissionPolicyGoType: GoStructType = kindGoType('v1.MutatingAdmissionPolicy', {
  spec: t.struct('v1.MutatingAdmissionPolicySpec', {
    paramKind: paramKindGoType,
    matchConstraints: matchResourcesGoType,
    variables: t.slice(variableGoType),
    mutations: t.slice(
      t.struct('v1.Mutation', {
        patchType: t.string('v1.PatchType'),
        applyConfiguration: t.struct('v1.ApplyConfiguration', { expression: t.string() }),
        jsonPatch: t.struct('v1.JSONPatch', { expression: t.string() }),
      }),
    ),
    failurePolicy: t.string('v1.FailurePolicyType'),
    matchConditions: t.slice(matchConditionGoType),
    reinvocationPolicy: t.string('v1.ReinvocationPolicyType'),
  }),
});

/** admissionregistration.k8s.io/v1 MutatingAdmissionPolicyBinding as kube's decoder sees it. */
export const mutatingAdmissionPolicyBindingGoType: GoStructType = kindGoType('v1.MutatingAdmissionPolicyBinding', {
  spec: t.struct('v1.MutatingAdmissionPolicyBindingSpec', {
    policyName: t.string(),
    paramRef: paramRefGoType,
    matchResources: matchResourcesGoType,
  }),
});
