import { goTypes as t, type GoType } from '../../lib/go/json-decoding.js';
import { labelSelectorGoType } from '../../schemas/object-meta-go-type.js';

/** The fields of admissionregistration/v1 RuleWithOperations (with its embedded Rule), embedded in turn elsewhere. */
export const ruleWithOperationsFields: Record<string, GoType> = {
  operations: t.slice(t.string('v1.OperationType')),
  apiGroups: t.slice(t.string()),
  apiVersions: t.slice(t.string()),
  resources: t.slice(t.string()),
  scope: t.string('v1.ScopeType'),
};

const namedRule = t.struct('v1.NamedRuleWithOperations', { resourceNames: t.slice(t.string()), ...ruleWithOperationsFields });

/** admissionregistration/v1 MatchResources. */
export const matchResourcesGoType: GoType = t.struct('v1.MatchResources', {
  namespaceSelector: labelSelectorGoType,
  objectSelector: labelSelectorGoType,
  resourceRules: t.slice(namedRule),
  excludeResourceRules: t.slice(namedRule),
  matchPolicy: t.string('v1.MatchPolicyType'),
});

/** admissionregistration/v1 MatchCondition (webhooks and policies alike). */
export const matchConditionGoType: GoType = t.struct('v1.MatchCondition', { name: t.string(), expression: t.string() });

/** admissionregistration/v1 ParamKind (policies). */
export const paramKindGoType: GoType = t.struct('v1.ParamKind', { apiVersion: t.string(), kind: t.string() });

/** admissionregistration/v1 Variable (policies). */
export const variableGoType: GoType = t.struct('v1.Variable', { name: t.string(), expression: t.string() });

/** admissionregistration/v1 ParamRef (policy bindings). */
export const paramRefGoType: GoType = t.struct('v1.ParamRef', {
  name: t.string(),
  namespace: t.string(),
  selector: labelSelectorGoType,
  parameterNotFoundAction: t.string('v1.ParameterNotFoundActionType'),
});
