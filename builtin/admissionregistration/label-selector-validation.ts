/** metav1 validation.ValidateLabelSelector (strict: label values in requirements must be valid). */
import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import type { LabelSelectorObject } from '../../lib/k8s/labels/label-selector.js';
import { validateLabels } from '../../lib/k8s/labels.js';
import { isQualifiedName, isValidLabelValue } from '../../lib/k8s/names.js';
import { goInvalid } from './go-field-values.js';

export function validateLabelSelector(sel: LabelSelectorObject | undefined, path: string): StatusCause[] {
  if (!sel) return [];
  const causes: StatusCause[] = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((r, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (!values.length) causes.push(fieldErrors.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length) causes.push(fieldErrors.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        causes.push(goInvalid(`${p}.operator`, r.operator ?? '', 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(r.key ?? '')) causes.push(goInvalid(`${p}.key`, r.key ?? '', msg));
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(v)) causes.push(goInvalid(`${p}.values[${j}]`, v, msg));
    });
  });
  return causes;
}
