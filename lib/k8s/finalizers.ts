import type { FieldError } from './field-errors.js';
import { fieldErrors, formatValue } from './field-errors.js';
import { isQualifiedName } from './names.js';

export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';
/** The finalizers kube accepts without a domain prefix. */
export const STANDARD_FINALIZERS = new Set(['kubernetes', FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS]);

/**
 * apimachinery ValidateFinalizers: every name is a qualified name, and `orphan` excludes `foregroundDeletion`.
 * With `standardNames` (kube's core-group types, e.g. Namespace) an unprefixed name must also be a standard one.
 */
export function validateFinalizers(finalizers: string[] | undefined, field: string, standardNames = false): FieldError[] {
  const list = finalizers ?? [];
  const causes: FieldError[] = [];
  for (const name of list) {
    for (const msg of isQualifiedName(name)) causes.push(fieldErrors.invalid(field, name, msg));
  }
  if (list.includes(FINALIZER_ORPHAN_DEPENDENTS) && list.includes(FINALIZER_DELETE_DEPENDENTS)) {
    causes.push(
      fieldErrors.invalid(field, list, `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`),
    );
  }
  if (standardNames) {
    list.forEach((name, i) => {
      if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
        causes.push(fieldErrors.invalid(`${field}[${i}]`, name, 'name is neither a standard finalizer name nor is it fully qualified'));
      }
    });
  }
  return causes;
}

/**
 * The warnings kube returns for custom resources whose create or update adds finalizers
 * that are not domain-qualified (apiextensions-apiserver generateWarningsFromObj).
 */
export function finalizerWarnings(finalizers: string[] | undefined, oldFinalizers: string[] = []): string[] {
  const field = 'metadata.finalizers';
  const added = [...new Set(finalizers ?? [])].filter((f) => !oldFinalizers.includes(f)).sort();
  return added.flatMap((name) => [
    ...isQualifiedName(name).map((msg) => `${field}: ${formatValue(name)}: ${msg}`),
    ...(!name.includes('/') && !STANDARD_FINALIZERS.has(name)
      ? [`${field}: ${formatValue(name)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`]
      : []),
  ]);
}
