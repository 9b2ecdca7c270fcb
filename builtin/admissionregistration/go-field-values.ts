/** field.Error bad values printed as apimachinery prints them: strings `%q`, typed slices with `%#v`. */
import type { StatusCause } from '../../core/contracts/api-error.js';
import { goQuote } from '../../lib/go/go-values.js';

/** Go's `%#v` of a slice of (named) strings: `[]string{"a", "b"}`. */
export function goStringSlice(typeName: string, values: readonly string[]): string {
  return `[]${typeName}{${values.map(goQuote).join(', ')}}`;
}

/** field.Invalid with a string bad value. */
export function goInvalid(field: string, value: string, detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${goQuote(value)}: ${detail}`, field };
}

/** field.Invalid with a bad value already printed as Go prints it. */
export function goInvalidRaw(field: string, printed: string, detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${printed}: ${detail}`, field };
}

/** field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`. */
export function goNotSupported(field: string, value: string, supported: readonly string[]): StatusCause {
  return { reason: 'FieldValueNotSupported', message: `Unsupported value: ${goQuote(value)}: supported values: ${supported.map(goQuote).join(', ')}`, field };
}

/** field.Duplicate with a string value. */
export function goDuplicate(field: string, value: string): StatusCause {
  return { reason: 'FieldValueDuplicate', message: `Duplicate value: ${goQuote(value)}`, field };
}

/** field.InternalError. */
export function goInternal(field: string, detail: string): StatusCause {
  return { reason: 'InternalError', message: `Internal error: ${detail}`, field };
}
