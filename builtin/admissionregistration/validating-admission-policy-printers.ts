import type { TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN } from '../../core/contracts/table-types.js';
import type { LabelSelectorObject } from '../../lib/k8s/labels/label-selector.js';

type Spec = Record<string, unknown> | undefined;

/** A policy's PARAMKIND cell: `apiVersion/kind`, or `<unset>`. */
export function paramKindCell(spec: Spec): string {
  const pk = spec?.paramKind as { apiVersion?: string; kind?: string } | undefined;
  return pk ? `${pk.apiVersion ?? ''}/${pk.kind ?? ''}` : '<unset>';
}

/** kube's ValidatingAdmissionPolicy printer (`kubectl get validatingadmissionpolicies`: NAME, VALIDATIONS, PARAMKIND, AGE). */
export const validatingAdmissionPolicyTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Validations', type: 'integer', format: '', description: 'Validations indicates the number of validation rules defined in this configuration', priority: 0 },
    { name: 'ParamKind', type: 'string', format: '', description: 'ParamKind specifies the kind of resources used to parameterize this policy', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => {
    const spec = obj.spec as Spec;
    const validations = Array.isArray(spec?.validations) ? spec.validations.length : 0;
    return [obj.metadata?.name ?? '', validations, paramKindCell(spec), age(obj.metadata?.creationTimestamp, now)];
  },
};

/** Go's generated String() of a metav1.LabelSelector (how kube prints a binding's paramRef selector). */
export function labelSelectorGoString(sel: LabelSelectorObject): string {
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('');
  const exprs = (sel.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/** kube's ValidatingAdmissionPolicyBinding printer (NAME, POLICYNAME, PARAMREF, AGE). */
export const validatingAdmissionPolicyBindingTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'PolicyName', type: 'string', format: '', description: 'PolicyName indicates the policy definition which the policy binding binded to', priority: 0 },
    { name: 'ParamRef', type: 'string', format: '', description: 'ParamRef indicates the param resource which sets the configration param', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => {
    const spec = obj.spec as Spec;
    const pr = spec?.paramRef as { name?: string; namespace?: string; selector?: LabelSelectorObject } | undefined;
    let paramRef = '<unset>';
    if (pr?.name) paramRef = pr.namespace ? `${pr.namespace}/${pr.name}` : `*/${pr.name}`;
    else if (pr?.selector) paramRef = labelSelectorGoString(pr.selector);
    return [obj.metadata?.name ?? '', typeof spec?.policyName === 'string' ? spec.policyName : '', paramRef, age(obj.metadata?.creationTimestamp, now)];
  },
};
