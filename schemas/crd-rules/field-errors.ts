/**
 * apimachinery's field.Error constructors, rendered as the StatusCauses kube-apiserver returns (reason, "<Type>: <value>:
 * <detail>" message, field path). Bad values print as field.Error's ErrorBody prints them: strings quoted with %q,
 * numbers and booleans bare, nil as "null", composite values with %#v.
 */
import { goQuote, kubeBadValue } from '../../lib/go/go-values.js';
import type { SchemaCause } from '../validation-errors.js';

/** A bad value already printed the Go way (e.g. `[]string{"a", "b"}`). */
export class GoPrinted {
  constructor(readonly text: string) {}
}

/** %#v of a Go `[]string`. */
export function goStringSlice(values: unknown[]): GoPrinted {
  return new GoPrinted(`[]string{${values.map((v) => goQuote(String(v))).join(', ')}}`);
}

function render(value: unknown): string {
  return value instanceof GoPrinted ? value.text : kubeBadValue(value);
}

export function required(field: string, detail = ''): SchemaCause {
  return { reason: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value', field };
}

export function forbidden(field: string, detail: string): SchemaCause {
  return { reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field };
}

export function invalid(field: string, value: unknown, detail: string): SchemaCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${render(value)}: ${detail}`, field };
}

export function notSupported(field: string, value: string, supported: string[]): SchemaCause {
  return {
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: ${goQuote(value)}: supported values: ${supported.map(goQuote).join(', ')}`,
    field,
  };
}

/** How field.Error prints itself (`<field>: <body>`): kube sorts structural-schema violations by this text. */
export function errorText(c: SchemaCause): string {
  return `${c.field}: ${c.message}`;
}

export function duplicate(field: string, value: unknown): SchemaCause {
  return { reason: 'FieldValueDuplicate', message: `Duplicate value: ${render(value)}`, field };
}
