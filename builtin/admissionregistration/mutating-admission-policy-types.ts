/** admissionregistration.k8s.io MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding (v1, v1beta1, v1alpha1 alike), as stored. */
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { MatchResources, NamedExpressionSpec, ParamKind, ParamRef } from './validating-admission-policy-types.js';

export interface Mutation {
  /** 'ApplyConfiguration' or 'JSONPatch'; required. */
  patchType?: string;
  applyConfiguration?: { expression?: string };
  jsonPatch?: { expression?: string };
}

export interface MutatingAdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  variables?: NamedExpressionSpec[];
  mutations?: Mutation[];
  /** 'Fail' (default) or 'Ignore'. */
  failurePolicy?: string;
  matchConditions?: NamedExpressionSpec[];
  /** 'Never' or 'IfNeeded'; required. */
  reinvocationPolicy?: string;
}

export interface MutatingAdmissionPolicy extends KubeObject {
  spec?: MutatingAdmissionPolicySpec;
}

export interface MutatingAdmissionPolicyBindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
}

export interface MutatingAdmissionPolicyBinding extends KubeObject {
  spec?: MutatingAdmissionPolicyBindingSpec;
}
