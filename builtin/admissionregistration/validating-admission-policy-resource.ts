import type { ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { validatingAdmissionPolicyBindingTablePrinter, validatingAdmissionPolicyTablePrinter } from './validating-admission-policy-printers.js';
import { admissionRegistrationResource } from './admission-registration-resource.js';
import { validatingAdmissionPolicyBindingGoType, validatingAdmissionPolicyGoType } from './validating-admission-policy-go-types.js';
import { defaultValidatingAdmissionPolicy, defaultValidatingAdmissionPolicyBinding } from './validating-admission-policy-defaults.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './validating-admission-policy-types.js';
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding, type PolicyExpressionChecker } from './validating-admission-policy-validation.js';
import { reservedStaticNameCauses } from './static-manifest-names.js';

/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy: cluster-scoped, with a status subresource the
 * type-checking controller writes. `checker` compiles the policy's CEL expressions for validation.
 */
export function validatingAdmissionPolicyResource(checker: PolicyExpressionChecker): ResourceType {
  return admissionRegistrationResource(
    'ValidatingAdmissionPolicy',
    validatingAdmissionPolicyGoType,
    { schema: builtinSchema('validatingadmissionpolicy.v1'), subresources: { status: true }, tablePrinter: validatingAdmissionPolicyTablePrinter },
    {
      prepareForCreate(obj) {
        defaultValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy);
        obj.status = {};
      },
      prepareForUpdate(obj) {
        defaultValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy);
      },
      validate: (obj, old) => [
        ...validateValidatingAdmissionPolicy(obj as ValidatingAdmissionPolicy, old as ValidatingAdmissionPolicy | undefined, checker),
        ...(old ? [] : reservedStaticNameCauses(obj)),
      ],
    },
  );
}

/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding: cluster-scoped, no status. */
export function validatingAdmissionPolicyBindingResource(): ResourceType {
  return admissionRegistrationResource(
    'ValidatingAdmissionPolicyBinding',
    validatingAdmissionPolicyBindingGoType,
    { schema: builtinSchema('validatingadmissionpolicybinding.v1'), tablePrinter: validatingAdmissionPolicyBindingTablePrinter },
    {
      prepareForCreate: (obj) => defaultValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding),
      prepareForUpdate: (obj) => defaultValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding),
      validate: (obj, old) => [
        ...validateValidatingAdmissionPolicyBinding(obj as ValidatingAdmissionPolicyBinding),
        ...(old ? [] : reservedStaticNameCauses(obj)),
      ],
    },
  );
}
