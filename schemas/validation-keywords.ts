/**
 * kube-openapi's validators (k8s.io/kube-openapi/pkg/validation/validate, as kube-apiserver v1.32 runs them on custom
 * resources) as ajv keywords. Each keyword checks one validator's rules on one value and reports SchemaViolations
 * with their order key; ajv walks properties, items and additionalProperties.
 */
import type AjvModule from 'ajv';
import type { ErrorObject } from 'ajv';
import { compileGoRegexp } from '../lib/go/go-regexp.js';
import { goFloat, goNumber, isGoInt } from '../lib/go/go-values.js';
import { formatValidator } from './string-formats.js';
import type { SchemaViolation } from './validation-errors.js';
import { OBJECT, RANK, pathSteps, stepsKey, type OrderKey, type PathStep } from './violation-order.js';

type Ajv = InstanceType<typeof AjvModule.default>;

/** What ajv tells a keyword about the value's position (a subset of its DataValidationCxt). */
interface DataValidationCxt {
  instancePath: string;
}

/** What a keyword reports: the violation and its order key relative to the validated value. */
export interface KeywordFinding {
  k: OrderKey;
  v: SchemaViolation;
  /** For violations found inside allOf/anyOf/oneOf branches: the path within the branch. */
  steps?: PathStep[];
}

/** The ajv error objects our keywords produce. */
export type KapiError = ErrorObject<string, KeywordFinding>;

export interface TypeRule {
  types: string[];
  nullable: boolean;
  format: string;
}
export interface StringRule {
  maxLength?: number;
  minLength?: number;
  pattern?: string;
}
export interface NumberRule {
  multipleOf?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
}
export interface ArrayRule {
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}
export interface SizeRule {
  minProperties?: number;
  maxProperties?: number;
}
export interface ObjectRule {
  /** Set when additionalProperties is false: the declared properties. */
  closed?: string[];
  required?: string[];
}
export interface CompositeRule {
  anyOf?: object[];
  oneOf?: object[];
  allOf?: object[];
  not?: object;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The JSON type name kube-openapi infers for a decoded value, and the Go format of numbers. */
function schemaInfo(data: unknown): [string, string] {
  if (typeof data === 'string') return ['string', ''];
  if (typeof data === 'boolean') return ['boolean', ''];
  if (typeof data === 'number') return isGoInt(data) ? ['integer', 'int64'] : ['number', 'float64'];
  if (Array.isArray(data)) return ['array', ''];
  return ['object', ''];
}

const MAX_JSON_FLOAT = 2 ** 53 - 1;

/** go-openapi/swag IsFloat64AJSONInteger: integral within 1e-9 relative error, in [-(2^53-1), 2^53-1]. */
export function isFloat64AJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  if (Number.isInteger(f)) return true;
  if (f < 0) return false; // float64(uint64(f)) of a negative fraction is far away from f
  const g = Math.trunc(f);
  if (g === 0) return false;
  return Math.abs(f - g) / (f + g) < 1e-9;
}

/** typeValidator. */
export function checkType(data: unknown, rule: TypeRule): SchemaViolation | undefined {
  const { types, nullable, format } = rule;
  if (types.length === 0 && !format) return undefined;
  if (data === null) {
    if (types.length > 0 && !types.includes('null') && !nullable) return { t: 'type', typeName: types.join(','), value: 'null' };
    return undefined;
  }
  const [schType, goFormat] = schemaInfo(data);
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(data as number) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = typeof data === 'string' || Array.isArray(data);
  if (!stringOrSlice && format && !(types.includes(schType) || goFormat === format || isFloatInt || isIntFloat)) {
    return { t: 'type', typeName: format, value: goFormat };
  }
  if (!(types.includes('number') || types.includes('integer')) && format && stringOrSlice) return undefined;
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return { t: 'type', typeName: types.join(','), value: schType };
  return undefined;
}

/** stringValidator: maxLength, minLength, pattern; the first failure only. */
export function checkString(data: string, rule: StringRule): SchemaViolation | undefined {
  const length = rule.maxLength !== undefined || rule.minLength !== undefined ? [...data].length : 0;
  if (rule.maxLength !== undefined && length > rule.maxLength) return { t: 'maxLength', max: rule.maxLength };
  if (rule.minLength !== undefined && length < rule.minLength) return { t: 'minLength', min: rule.minLength, value: data };
  if (rule.pattern) {
    const re = compileGoRegexp(rule.pattern);
    if (re && !re.test(data)) return { t: 'pattern', pattern: rule.pattern, value: data };
  }
  return undefined;
}

/** formatValidator (strings, supported formats only). */
export function checkFormat(data: string, format: string): SchemaViolation | undefined {
  const valid = formatValidator(format);
  if (valid && !valid(data)) return { t: 'format', format, value: data };
  return undefined;
}

/** numberValidator: integers compare against int64(bound), floats against the float bound. */
export function checkNumber(data: number, rule: NumberRule): KeywordFinding[] {
  const out: KeywordFinding[] = [];
  const int = isGoInt(data);
  if (rule.multipleOf !== undefined && rule.multipleOf >= 0) {
    const factor = Math.trunc(rule.multipleOf);
    if (int && factor !== 0) {
      if (data % factor !== 0) out.push({ k: [RANK.number, 0], v: { t: 'multipleOf', factor: goNumber(factor), value: data } });
    } else if (rule.multipleOf !== 0) {
      const f = rule.multipleOf;
      const mult = f < 1 ? (1 / f) * data : data / f;
      if (!isFloat64AJSONInteger(mult)) out.push({ k: [RANK.number, 0], v: { t: 'multipleOf', factor: goFloat(f), value: data } });
    }
  }
  if (rule.minimum !== undefined) {
    const bound = int ? Math.trunc(rule.minimum) : rule.minimum;
    const exclusive = rule.exclusiveMinimum === true;
    if (exclusive ? data <= bound : data < bound) {
      out.push({ k: [RANK.number, 1], v: { t: 'minimum', bound: int ? goNumber(bound) : goFloat(bound), exclusive, value: data } });
    }
  }
  if (rule.maximum !== undefined) {
    const bound = int ? Math.trunc(rule.maximum) : rule.maximum;
    const exclusive = rule.exclusiveMaximum === true;
    if (exclusive ? data >= bound : data > bound) {
      out.push({ k: [RANK.number, 2], v: { t: 'maximum', bound: int ? goNumber(bound) : goFloat(bound), exclusive, value: data } });
    }
  }
  return out;
}

/** Deep equality of decoded JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const ob = b as Record<string, unknown>;
  if (ka.length !== Object.keys(ob).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && jsonEqual((a as Record<string, unknown>)[k], ob[k]));
}

function hasDuplicates(items: unknown[]): boolean {
  for (let i = 1; i < items.length; i++) {
    for (let j = 0; j < i; j++) if (jsonEqual(items[i], items[j])) return true;
  }
  return false;
}

/** sliceValidator's own rules (items are walked by ajv). */
export function checkArray(data: unknown[], rule: ArrayRule): KeywordFinding[] {
  const out: KeywordFinding[] = [];
  if (rule.minItems !== undefined && data.length < rule.minItems) {
    out.push({ k: [RANK.array, 1], v: { t: 'minItems', min: rule.minItems, size: data.length } });
  }
  if (rule.maxItems !== undefined && data.length > rule.maxItems) {
    out.push({ k: [RANK.array, 2], v: { t: 'maxItems', max: rule.maxItems, size: data.length } });
  }
  if (rule.uniqueItems && hasDuplicates(data)) {
    out.push({ k: [RANK.array, 3], v: { t: 'uniqueItems' } });
  }
  return out;
}

/**
 * Whether `data` equals enum value `allowed` the way kube-openapi compares them: after converting the data to the
 * enum value's Go type (so a float matches the integer it truncates to); null never matches.
 */
function enumMatches(data: unknown, allowed: unknown): boolean {
  if (data === null || allowed === null) return false;
  if (typeof data === 'number' && typeof allowed === 'number') {
    return isGoInt(allowed) && !isGoInt(data) ? Math.trunc(data) === allowed : data === allowed;
  }
  return jsonEqual(data, allowed);
}

/** basicCommonValidator (enum); applies to null as well. */
export function checkEnum(data: unknown, values: unknown[]): SchemaViolation | undefined {
  if (values.some((allowed) => enumMatches(data, allowed))) return undefined;
  return { t: 'enum', values, value: data };
}

/** objectValidator's size rules; a failure ends the object's validation (no properties, no required). */
export function checkSize(data: Record<string, unknown>, rule: SizeRule): SchemaViolation | undefined {
  const n = Object.keys(data).length;
  if (rule.minProperties !== undefined && n < rule.minProperties) return { t: 'minProperties', min: rule.minProperties, size: n };
  if (rule.maxProperties !== undefined && n > rule.maxProperties) return { t: 'maxProperties', max: rule.maxProperties, size: n };
  return undefined;
}

/** objectValidator's additionalProperties: false and required rules. */
export function checkObject(data: Record<string, unknown>, rule: ObjectRule): KeywordFinding[] {
  const out: KeywordFinding[] = [];
  if (rule.closed) {
    const declared = new Set(rule.closed);
    for (const key of Object.keys(data)) {
      if (!declared.has(key)) out.push({ k: [RANK.object, OBJECT.additional, key], v: { t: 'forbiddenProperty', key } });
    }
  }
  (rule.required ?? []).forEach((property, i) => {
    if (!Object.prototype.hasOwnProperty.call(data, property)) {
      out.push({ k: [RANK.object, OBJECT.required, i], v: { t: 'required', property } });
    }
  });
  return out;
}

/** A finding as an ajv error object, with the paths ajv would have given it. */
function findingError(keyword: string, schemaPath: string, instancePath: string, f: KeywordFinding): KapiError {
  return { keyword, instancePath, schemaPath, params: f };
}

/** The order key of an error relative to the value its validator started from. */
export function errorKey(e: KapiError): OrderKey {
  return [...stepsKey(pathSteps(e.schemaPath, e.instancePath)), ...e.params.k];
}

/** The path of an error's value relative to the value its validator started from. */
export function errorSteps(e: KapiError): PathStep[] {
  return [...pathSteps(e.schemaPath, e.instancePath), ...(e.params.steps ?? [])];
}

/** A compiled ajv validator, called for the findings it leaves in the sink. */
type Validate = (data: unknown) => unknown;

/**
 * The findings of the validator run in progress. The keywords report here and always pass, rather than return ajv
 * errors: ajv appends a keyword's errors by concatenating arrays, which costs quadratic time in the number of errors
 * (100,000 bad items took minutes).
 */
let findings: KapiError[] | undefined;

/** Runs an ajv validator compiled with the keywords below and returns what they found (none when valid). */
export function collectFindings(validate: Validate, data: unknown): KapiError[] {
  const outer = findings;
  const found: KapiError[] = [];
  findings = found;
  try {
    validate(data);
  } finally {
    findings = outer;
  }
  return found;
}

/** Registers the kube-openapi keywords (x-kapi-*) on an ajv instance. */
export function addKubeKeywords(ajv: Ajv): void {
  const keyword = <R>(name: string, check: (data: unknown, rule: R) => KeywordFinding[]): void => {
    ajv.addKeyword({
      keyword: name,
      schemaType: 'object',
      errors: false,
      valid: true,
      compile(rule: R, _parent, it) {
        const schemaPath = `${it.errSchemaPath}/${name}`;
        return (data: unknown, cxt?: DataValidationCxt) => {
          for (const f of check(data, rule)) findings?.push(findingError(name, schemaPath, cxt?.instancePath ?? '', f));
          return true;
        };
      },
    });
  };
  const one = (k: OrderKey, v: SchemaViolation | undefined): KeywordFinding[] => (v ? [{ k, v }] : []);

  keyword<TypeRule>('x-kapi-type', (data, rule) => one([RANK.type], checkType(data, rule)));
  keyword<StringRule>('x-kapi-string', (data, rule) => (typeof data === 'string' ? one([RANK.string], checkString(data, rule)) : []));
  keyword<{ format: string }>('x-kapi-format', (data, rule) => (typeof data === 'string' ? one([RANK.format], checkFormat(data, rule.format)) : []));
  keyword<NumberRule>('x-kapi-number', (data, rule) => (typeof data === 'number' ? checkNumber(data, rule) : []));
  keyword<ArrayRule>('x-kapi-array', (data, rule) => (Array.isArray(data) ? checkArray(data, rule) : []));
  keyword<{ values: unknown[] }>('x-kapi-enum', (data, rule) => one([RANK.enum], checkEnum(data, rule.values)));
  keyword<SizeRule>('x-kapi-size', (data, rule) => (isObject(data) ? one([RANK.object, OBJECT.size], checkSize(data, rule)) : []));
  keyword<ObjectRule>('x-kapi-object', (data, rule) => (isObject(data) ? checkObject(data, rule) : []));

  ajv.addKeyword({
    keyword: 'x-kapi-composite',
    schemaType: 'object',
    errors: false,
    valid: true,
    compile(rule: CompositeRule, _parent, it) {
      const schemaPath = `${it.errSchemaPath}/x-kapi-composite`;
      const compile = (s: object): Validate => it.self.compile(s) as Validate;
      const branches = {
        anyOf: (rule.anyOf ?? []).map(compile),
        oneOf: (rule.oneOf ?? []).map(compile),
        allOf: (rule.allOf ?? []).map(compile),
        not: rule.not ? compile(rule.not) : undefined,
      };
      return (data: unknown, cxt?: DataValidationCxt) => {
        for (const e of compositeErrors(data, schemaPath, cxt?.instancePath ?? '', branches)) findings?.push(e);
        return true;
      };
    },
  });
}

interface CompositeBranches {
  anyOf: Validate[];
  oneOf: Validate[];
  allOf: Validate[];
  not: Validate | undefined;
}

/** schemaPropsValidator: anyOf, oneOf, allOf, not; skipped for null values. */
function compositeErrors(data: unknown, schemaPath: string, instancePath: string, { anyOf, oneOf, allOf, not }: CompositeBranches): KapiError[] {
  if (data === null || data === undefined) return [];
  const out: KapiError[] = [];
  const own = (k: OrderKey, v: SchemaViolation): void => {
    out.push(findingError('x-kapi-composite', schemaPath, instancePath, { k: [RANK.composite, ...k], v }));
  };
  const lift = (errs: KapiError[], prefix: OrderKey): void => {
    for (const e of errs) {
      out.push({
        keyword: 'x-kapi-composite',
        instancePath: instancePath + e.instancePath,
        schemaPath,
        params: { k: [RANK.composite, ...prefix, ...errorKey(e)], v: e.params.v, steps: errorSteps(e) },
      });
    }
  };
  // kube-openapi keeps the failures of the branch with the highest match count; ties go to the first branch, which
  // is what is kept here.
  if (anyOf.length) {
    let best: KapiError[] | undefined;
    let ok = false;
    for (const v of anyOf) {
      const errs = collectFindings(v, data);
      if (errs.length === 0) {
        ok = true;
        break;
      }
      best ??= errs;
    }
    if (!ok) {
      own([0, 0], { t: 'anyOf' });
      if (best) lift(best, [0, 1]);
    }
  }
  if (oneOf.length) {
    let best: KapiError[] | undefined;
    let validated = 0;
    for (const v of oneOf) {
      const errs = collectFindings(v, data);
      if (errs.length === 0) {
        validated++;
        best = undefined;
        continue;
      }
      if (validated === 0) best ??= errs;
    }
    if (validated !== 1) {
      own([1, 0], { t: 'oneOf', detail: validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives` });
      if (best) lift(best, [1, 1]);
    }
  }
  if (allOf.length) {
    let validated = 0;
    allOf.forEach((v, i) => {
      const errs = collectFindings(v, data);
      if (errs.length === 0) validated++;
      else lift(errs, [2, 0, i]);
    });
    if (validated !== allOf.length) own([2, 1], { t: 'allOf', detail: validated === 0 ? '. None validated' : '' });
  }
  if (not && collectFindings(not, data).length === 0) own([3], { t: 'not' });
  return out;
}
