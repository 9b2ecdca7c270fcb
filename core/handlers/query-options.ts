import { errors } from '../contracts/api-error.js';
import { goQuote } from '../../lib/go/go-values.js';

/** `dryRun=All` → true; absent → false; any other value → 400 as kube-apiserver answers. */
export function parseDryRun(values: string[]): boolean {
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All') throw errors.badRequest(`dryRun: Unsupported value: ${JSON.stringify(v)}: supported values: "All"`);
  }
  return true;
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

const fieldValidationValues = new Set(['', 'Ignore', 'Warn', 'Strict']);

/** fieldValidation must be Ignore, Warn or Strict; absent means Warn. */
export function parseFieldValidation(query: URLSearchParams): 'Ignore' | 'Warn' | 'Strict' {
  const v = query.get('fieldValidation') ?? '';
  if (!fieldValidationValues.has(v)) {
    throw errors.badRequest(`fieldValidation parameter unsupported: ${JSON.stringify(v)}. Supported parameters include: Ignore, Warn, Strict`);
  }
  return (v || 'Warn') as 'Ignore' | 'Warn' | 'Strict';
}
