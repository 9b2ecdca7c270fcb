import { errors, fieldErrors } from '../contracts/api-error.js';
import type { StatusCause } from '../contracts/status.js';
import { goQuote } from '../../lib/go/go-values.js';

/** `dryRun=All` → true; absent → false. Its values are checked with the write's options (`dryRunCauses`). */
export function parseDryRun(values: string[]): boolean {
  return values.length > 0;
}

/** kube's ValidateDryRun: every value must be `All`; the values printed as Go prints a []string. */
export function dryRunCauses(values: string[]): StatusCause[] {
  if (values.every((v) => v === 'All')) return [];
  const value = `[]string{${values.map(goQuote).join(', ')}}`;
  return [{ reason: 'FieldValueNotSupported', message: `Unsupported value: ${value}: supported values: "All"`, field: 'dryRun' }];
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * An int64 query parameter (limit, timeoutSeconds, gracePeriodSeconds) as kube's parameter codec reads it:
 * strconv.ParseInt(s, 10, 64), whose error is kube's 400 message as is; absent → undefined. An empty value is
 * invalid syntax, as in kube. Values beyond ±2^53 come back as ±Number.MAX_SAFE_INTEGER: no count or number of
 * seconds comes near either, and an inexact number must never reach storage or a webhook.
 */
export function parseInt64Param(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const fail = (why: string) => errors.badRequest(`strconv.ParseInt: parsing ${goQuote(raw)}: ${why}`);
  if (!/^[+-]?\d+$/.test(raw)) throw fail('invalid syntax');
  const value = BigInt(raw);
  if (value < int64Min || value > int64Max) throw fail('value out of range');
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(value > safe ? safe : value < -safe ? -safe : value);
}

/** kube's allowed fieldValidation values, sorted as its NotSupported message lists them. */
const fieldValidationValues = ['', 'Ignore', 'Strict', 'Warn'];

/** fieldValidation: Ignore, Warn or Strict; absent means Warn. Its value is checked with the write's options (`fieldValidationCauses`). */
export function parseFieldValidation(query: URLSearchParams): 'Ignore' | 'Warn' | 'Strict' {
  const v = query.get('fieldValidation') ?? '';
  return (v === 'Ignore' || v === 'Strict' ? v : 'Warn');
}

/** kube's ValidateFieldValidation. */
export function fieldValidationCauses(query: URLSearchParams): StatusCause[] {
  const v = query.get('fieldValidation') ?? '';
  return fieldValidationValues.includes(v) ? [] : [fieldErrors.notSupported('fieldValidation', v, fieldValidationValues)];
}
