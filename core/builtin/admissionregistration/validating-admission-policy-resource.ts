import type { ResourceType } from '../../registry/resource-type.js';
import { builtinSchema } from '../../../schemas/builtin-schemas.js';
import { compileSchema } from '../../../schemas/structural-schema.js';
import type { StatusCause } from '../../errors/api-error.js';
import type { KubeObject } from '../../registry/resource-type.js';
import { validatingAdmissionPolicyBindingTablePrinter, validatingAdmissionPolicyTablePrinter } from '../../table/validating-admission-policy-printers.js';
import { defaultValidatingAdmissionPolicy, defaultValidatingAdmissionPolicyBinding } from './validating-admission-policy-defaults.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './validating-admission-policy-types.js';
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding, type PolicyExpressionChecker } from './validating-admission-policy-validation.js';

export const ADMISSION_REGISTRATION_GROUP = 'admissionregistration.k8s.io';

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * Values of the wrong JSON type (kube refuses them while decoding into its Go types): reported as the schema's type
 * errors before kube's own validation looks at the object.
 */
function typeErrors(schemaName: string, obj: KubeObject): StatusCause[] {
  return compileSchema(builtinSchema(schemaName))
    .validate(obj)
    .filter((c) => c.reason === 'FieldValueTypeInvalid');
}

/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy: cluster-scoped, with a status subresource the
 * type-checking controller writes. `checker` compiles the policy's CEL expressions for validation.
 */
export function validatingAdmissionPolicyResource(checker: PolicyExpressionChecker): ResourceType {
  const schemaName = 'validatingadmissionpolicy.v1';
  return {
    group: ADMISSION_REGISTRATION_GROUP,
    names: {
      plural: 'validatingadmissionpolicies',
      singular: 'validatingadmissionpolicy',
      kind: 'ValidatingAdmissionPolicy',
      listKind: 'ValidatingAdmissionPolicyList',
      categories: ['api-extensions'],
    },
    scope: 'Cluster',
    allowUnconditionalUpdate: true,
    verbs,
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: builtinSchema(schemaName),
        subresources: { status: true },
        tablePrinter: validatingAdmissionPolicyTablePrinter,
      },
    ],
    strategy: {
      prepareForCreate(obj) {
        defaultValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy);
        obj.status = {};
      },
      prepareForUpdate(obj) {
        defaultValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy);
      },
      validate(obj, old) {
        const bad = typeErrors(schemaName, obj);
        if (bad.length) return bad;
        return validateValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy, old as ValidatingAdmissionPolicy | undefined, checker);
      },
    },
  };
}

/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding: cluster-scoped, no status. */
export function validatingAdmissionPolicyBindingResource(): ResourceType {
  const schemaName = 'validatingadmissionpolicybinding.v1';
  return {
    group: ADMISSION_REGISTRATION_GROUP,
    names: {
      plural: 'validatingadmissionpolicybindings',
      singular: 'validatingadmissionpolicybinding',
      kind: 'ValidatingAdmissionPolicyBinding',
      listKind: 'ValidatingAdmissionPolicyBindingList',
      categories: ['api-extensions'],
    },
    scope: 'Cluster',
    allowUnconditionalUpdate: true,
    verbs,
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: builtinSchema(schemaName),
        tablePrinter: validatingAdmissionPolicyBindingTablePrinter,
      },
    ],
    strategy: {
      prepareForCreate: (obj) => defaultValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding),
      prepareForUpdate: (obj) => defaultValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding),
      validate(obj) {
        const bad = typeErrors(schemaName, obj);
        if (bad.length) return bad;
        return validateValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding);
      },
    },
  };
}
