/** A cause of a 422 Invalid: the shape of meta/v1 StatusCause, with kube's `field.Error` texts. */
export interface FieldError {
  reason: string;
  message: string;
  field: string;
}

/** Field-error helpers that produce Kubernetes' `field.Error` texts. */
export const fieldErrors = {
  required(field: string, detail = ''): FieldError {
    return { reason: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value', field };
  },
  invalid(field: string, value: unknown, detail: string): FieldError {
    return { reason: 'FieldValueInvalid', message: `Invalid value: ${formatValue(value)}: ${detail}`, field };
  },
  forbidden(field: string, detail: string): FieldError {
    return { reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field };
  },
  notSupported(field: string, value: unknown, supported: string[]): FieldError {
    return {
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${formatValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
      field,
    };
  },
  duplicate(field: string, value: unknown): FieldError {
    return { reason: 'FieldValueDuplicate', message: `Duplicate value: ${formatValue(value)}`, field };
  },
  tooLong(field: string, max: number): FieldError {
    return { reason: 'FieldValueTooLong', message: `Too long: may not be more than ${max} bytes`, field };
  },
};

/** Formats a value the way Kubernetes' field errors print it (strings quoted, others as JSON). */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
