import { goJSON, goQuote } from '../../go/go-values.js';
import { labelKeyErrors, labelValueErrors } from './label-validation.js';

/** selection.Operator values, as apimachinery spells them. */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** A string value is Go-quoted; a slice is JSON, and an empty one is the nil slice kube reports as `null`. */
function invalid(path: string, value: string | readonly string[], detail: string): string {
  const shown = typeof value === 'string' ? goQuote(value) : value.length === 0 ? 'null' : goJSON(value);
  return `${path}: Invalid value: ${shown}: ${detail}`;
}

/** strconv.ParseInt(s, 10, 64) succeeds. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

/**
 * labels.NewRequirement's checks: undefined when valid, else the aggregated error text
 * (one message as is, several as `[a, b]`, duplicates dropped).
 */
export function requirementProblem(r: LabelRequirement): string | undefined {
  const { key, operator, values } = r;
  const problems: string[] = [];
  const keyErrs = labelKeyErrors(key);
  if (keyErrs.length > 0) problems.push(invalid('key', key, keyErrs.join('; ')));
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) problems.push(invalid('values', values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) problems.push(invalid('values', values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) problems.push(invalid('values', values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) problems.push(invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          problems.push(invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
  }
  values.forEach((v, i) => {
    const errs = labelValueErrors(v);
    if (errs.length > 0) problems.push(invalid(`values[${i}][${key}]`, v, errs.join('; ')));
  });
  const unique = [...new Set(problems)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** Requirement.Matches: a missing key satisfies only `notin`, `!=` and `!`. */
export function requirementMatches(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : '';
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      const actual = has ? parseInt64(value) : undefined;
      const bound = r.values.length === 1 ? parseInt64(r.values[0]) : undefined;
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}
