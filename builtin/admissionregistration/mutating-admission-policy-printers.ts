import type { TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN } from '../../core/contracts/table-types.js';
import { paramKindCell, validatingAdmissionPolicyBindingTablePrinter } from './validating-admission-policy-printers.js';

/** kube's MutatingAdmissionPolicy printer (`kubectl get mutatingadmissionpolicies`: NAME, MUTATIONS, PARAMKIND, AGE). */
export const mutatingAdmissionPolicyTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Mutations', type: 'integer', format: '', description: 'Mutation indicates the number of mutations rules defined in this configuration', priority: 0 },
    { name: 'ParamKind', type: 'string', format: '', description: 'ParamKind specifies the kind of resources used to parameterize this policy', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => {
    const spec = obj.spec as Record<string, unknown> | undefined;
    const mutations = Array.isArray(spec?.mutations) ? spec.mutations.length : 0;
    return [obj.metadata?.name ?? '', mutations, paramKindCell(spec), age(obj.metadata?.creationTimestamp, now)];
  },
};

/** kube prints MutatingAdmissionPolicyBindings with the same columns as validating ones (NAME, POLICYNAME, PARAMREF, AGE). */
export const mutatingAdmissionPolicyBindingTablePrinter: TablePrinter = validatingAdmissionPolicyBindingTablePrinter;
