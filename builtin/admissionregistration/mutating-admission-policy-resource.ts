import { reservedStaticNameCauses } from './static-manifest-names.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { admissionRegistrationResource } from './admission-registration-resource.js';
import { defaultMutatingAdmissionPolicy, defaultMutatingAdmissionPolicyBinding } from './mutating-admission-policy-defaults.js';
import { mutatingAdmissionPolicyBindingGoType, mutatingAdmissionPolicyGoType } from './mutating-admission-policy-go-types.js';
import { mutatingAdmissionPolicyBindingTablePrinter, mutatingAdmissionPolicyTablePrinter } from './mutating-admission-policy-printers.js';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from './mutating-admission-policy-types.js';
import {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
  type MutatingPolicyExpressionChecker,
} from './mutating-admission-policy-validation.js';

/** kube 1.36 serves the mutating policy kinds in v1 (stored) and, with the same shape, in v1beta1 and v1alpha1. */
const ALSO_SERVED = ['v1beta1', 'v1alpha1'];

/** The warnings about a valid policy sent when it is created or updated (its mutations type-checked by kind). */
export type MutatingPolicyWarnings = (policy: MutatingAdmissionPolicy) => string[];

/**
 * admissionregistration.k8s.io MutatingAdmissionPolicy: cluster-scoped, no status. `checker` compiles the policy's
 * CEL expressions for validation; `warnings`, when given, are the strategy's warnings on create and update.
 */
export function mutatingAdmissionPolicyResource(checker: MutatingPolicyExpressionChecker, warnings?: MutatingPolicyWarnings): ResourceType {
  const prepare = (obj: object) => defaultMutatingAdmissionPolicy(obj as MutatingAdmissionPolicy);
  const warn = warnings && ((obj: object) => warnings(obj as MutatingAdmissionPolicy));
  return admissionRegistrationResource(
    'MutatingAdmissionPolicy',
    mutatingAdmissionPolicyGoType,
    { schema: builtinSchema('mutatingadmissionpolicy.v1'), tablePrinter: mutatingAdmissionPolicyTablePrinter },
    {
      prepareForCreate: prepare,
      prepareForUpdate: prepare,
      validate: (obj, old) => [
        ...validateMutatingAdmissionPolicy(obj as MutatingAdmissionPolicy, old as MutatingAdmissionPolicy | undefined, checker),
        ...(old ? [] : reservedStaticNameCauses(obj)),
      ],
      ...(warn ? { warningsOnCreate: warn, warningsOnUpdate: warn } : {}),
    },
    ALSO_SERVED,
  );
}

/** admissionregistration.k8s.io MutatingAdmissionPolicyBinding: cluster-scoped, no status. */
export function mutatingAdmissionPolicyBindingResource(): ResourceType {
  const prepare = (obj: object) => defaultMutatingAdmissionPolicyBinding(obj as MutatingAdmissionPolicyBinding);
  return admissionRegistrationResource(
    'MutatingAdmissionPolicyBinding',
    mutatingAdmissionPolicyBindingGoType,
    { schema: builtinSchema('mutatingadmissionpolicybinding.v1'), tablePrinter: mutatingAdmissionPolicyBindingTablePrinter },
    {
      prepareForCreate: prepare,
      prepareForUpdate: prepare,
      validate: (obj, old) => [
        ...validateMutatingAdmissionPolicyBinding(obj as MutatingAdmissionPolicyBinding),
        ...(old ? [] : reservedStaticNameCauses(obj)),
      ],
    },
    ALSO_SERVED,
  );
}
