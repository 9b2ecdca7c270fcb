/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding, as stored. */
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { LabelSelectorObject } from '../../lib/k8s/labels/label-selector.js';

export interface NamedRuleWithOperations {
  resourceNames?: string[];
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  /** '*' (default), 'Cluster' or 'Namespaced'. */
  scope?: string;
}

export interface MatchResources {
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  /** 'Equivalent' (default) or 'Exact'. */
  matchPolicy?: string;
}

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface Validation {
  expression: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface NamedExpressionSpec {
  name: string;
  expression: string;
}

export interface ValidatingAdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  /** 'Fail' (default) or 'Ignore'. */
  failurePolicy?: string;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: NamedExpressionSpec[];
  variables?: NamedExpressionSpec[];
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

export interface ValidatingAdmissionPolicyStatus {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: ExpressionWarning[] };
  conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string; observedGeneration?: number }[];
}

export interface ValidatingAdmissionPolicy extends KubeObject {
  spec?: ValidatingAdmissionPolicySpec;
  status?: ValidatingAdmissionPolicyStatus;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelectorObject;
  /** 'Allow' or 'Deny'; required. */
  parameterNotFoundAction?: string;
}

export interface ValidatingAdmissionPolicyBindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: string[];
}

export interface ValidatingAdmissionPolicyBinding extends KubeObject {
  spec?: ValidatingAdmissionPolicyBindingSpec;
}
