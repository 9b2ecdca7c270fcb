import type { ResourceType } from '../../registry/resource-type.js';
import { builtinSchema } from '../../../schemas/builtin-schemas.js';
import { compileSchema } from '../../../schemas/structural-schema.js';
import type { StatusCause } from '../../errors/api-error.js';
import type { KubeObject } from '../../registry/resource-type.js';
import { validatingAdmissionPolicyBindingTablePrinter, validatingAdmissionPolicyTablePrinter } from '../../table/validating-admission-policy-printers.js';
import { admissionRegistrationResource } from './admission-registration-resource.js';
import { defaultValidatingAdmissionPolicy, defaultValidatingAdmissionPolicyBinding } from './validating-admission-policy-defaults.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './validating-admission-policy-types.js';
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding, type PolicyExpressionChecker } from './validating-admission-policy-validation.js';

/**
 * kube's validation of one kind, after the values of the wrong JSON type (kube refuses them while decoding into its
 * Go types): those are reported as the schema's type errors before kube's own validation looks at the object.
 */
function validateTypesFirst(schemaName: string, validate: (obj: KubeObject, old?: KubeObject) => StatusCause[]) {
  const compiled = compileSchema(builtinSchema(schemaName));
  return (obj: KubeObject, old?: KubeObject): StatusCause[] => {
    const bad = compiled.validate(obj).filter((c) => c.reason === 'FieldValueTypeInvalid');
    return bad.length ? bad : validate(obj, old);
  };
}

/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy: cluster-scoped, with a status subresource the
 * type-checking controller writes. `checker` compiles the policy's CEL expressions for validation.
 */
export function validatingAdmissionPolicyResource(checker: PolicyExpressionChecker): ResourceType {
  const schemaName = 'validatingadmissionpolicy.v1';
  return admissionRegistrationResource(
    'ValidatingAdmissionPolicy',
    { schema: builtinSchema(schemaName), subresources: { status: true }, tablePrinter: validatingAdmissionPolicyTablePrinter },
    {
      prepareForCreate(obj) {
        defaultValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy);
        obj.status = {};
      },
      prepareForUpdate(obj) {
        defaultValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy);
      },
      validate: validateTypesFirst(schemaName, (obj, old) =>
        validateValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy, old as ValidatingAdmissionPolicy | undefined, checker),
      ),
    },
  );
}

/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding: cluster-scoped, no status. */
export function validatingAdmissionPolicyBindingResource(): ResourceType {
  const schemaName = 'validatingadmissionpolicybinding.v1';
  return admissionRegistrationResource(
    'ValidatingAdmissionPolicyBinding',
    { schema: builtinSchema(schemaName), tablePrinter: validatingAdmissionPolicyBindingTablePrinter },
    {
      prepareForCreate: (obj) => defaultValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding),
      prepareForUpdate: (obj) => defaultValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding),
      validate: validateTypesFirst(schemaName, (obj) => validateValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding)),
    },
  );
}
