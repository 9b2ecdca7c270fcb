import type { FieldError } from './field-errors.js';
import { fieldErrors } from './field-errors.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

/** kube's limit on the summed length of all annotation keys and values (bytes). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** metav1 ValidateLabels: keys are qualified names, values label values; errors carry the bad key or value. */
export function validateLabels(labels: Record<string, string> | undefined, field: string): FieldError[] {
  const causes: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(key)) causes.push(fieldErrors.invalid(field, key, msg));
    for (const msg of isValidLabelValue(String(value))) causes.push(fieldErrors.invalid(field, value, msg));
  }
  return causes;
}

/** ValidateAnnotations: keys are qualified names (checked lower-cased), and keys plus values fit in 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, field: string): FieldError[] {
  const causes: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(key.toLowerCase())) causes.push(fieldErrors.invalid(field, key, msg));
    size += Buffer.byteLength(key, 'utf8') + Buffer.byteLength(String(value), 'utf8');
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) causes.push(fieldErrors.tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return causes;
}
