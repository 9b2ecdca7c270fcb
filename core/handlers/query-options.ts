import { errors } from '../errors/api-error.js';

/** `dryRun=All` → true; absent → false; any other value → 400 as kube-apiserver answers. */
export function parseDryRun(values: string[]): boolean {
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All') throw errors.badRequest(`dryRun: Unsupported value: ${JSON.stringify(v)}: supported values: "All"`);
  }
  return true;
}

/** Parses a non-negative integer query parameter (limit, timeoutSeconds, gracePeriodSeconds). */
export function parseIntParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw errors.badRequest(`invalid value for ${name}: ${JSON.stringify(raw)}: strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  return Number(raw);
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
