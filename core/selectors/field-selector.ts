import { errors } from '../contracts/api-error.js';
import type { FieldSelector } from '../../lib/k8s/fields/field-selector.js';

/**
 * Rejects fields the resource cannot be selected by, as the list/watch handler's field-label conversion does.
 * kube-apiserver's text for custom resources and namespaces names only the field, not the kind.
 */
export function validateFieldSelector(sel: FieldSelector, supportedFields: readonly string[], _kind?: string): void {
  const unsupported = sel.requirements.find((r) => !supportedFields.includes(r.field));
  if (unsupported) throw errors.badRequest(`field label not supported: ${unsupported.field}`);
}
