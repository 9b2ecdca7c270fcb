/**
 * kube-openapi's validation errors and how kube-apiserver turns them into `field.Error`s (apiextensions-apiserver
 * `kubeOpenAPIResultToFieldErrors`, v1.32): the reason, the field path and the message text of each cause.
 */
import { goJSON, goQuote, goV, kubeBadValue } from '../lib/go/go-values.js';

/** One violation as kube-openapi reports it, before it is named and rendered. */
export type SchemaViolation =
  | { t: 'type'; typeName: string; value: string }
  | { t: 'format'; format: string; value: string }
  | { t: 'required'; property: string }
  | { t: 'maxLength'; max: number }
  | { t: 'minLength'; min: number; value: string }
  | { t: 'pattern'; pattern: string; value: string }
  | { t: 'multipleOf'; factor: string; value: number }
  | { t: 'minimum'; bound: string; exclusive: boolean; value: number }
  | { t: 'maximum'; bound: string; exclusive: boolean; value: number }
  | { t: 'minItems'; min: number; size: number }
  | { t: 'maxItems'; max: number; size: number }
  | { t: 'uniqueItems' }
  | { t: 'enum'; values: unknown[]; value: unknown }
  | { t: 'minProperties'; min: number; size: number }
  | { t: 'maxProperties'; max: number; size: number }
  | { t: 'forbiddenProperty'; key: string }
  | { t: 'anyOf' }
  | { t: 'oneOf'; detail: string }
  | { t: 'allOf'; detail: string }
  | { t: 'not' };

/** A cause of kube's 422 (the shape of meta/v1 StatusCause). */
export interface SchemaCause {
  reason: string;
  message: string;
  field: string;
}

/**
 * kube-openapi's own message for a violation at `name` (the validator path: `spec.replicas`, `spec.items[0]`, ''
 * for the root). Identical messages are reported once, as kube-openapi's Result does.
 */
export function openAPIMessage(v: SchemaViolation, name: string): string {
  switch (v.t) {
    case 'type':
      return `${name} in body must be of type ${v.typeName}: ${goQuote(v.value)}`;
    case 'format':
      return `${name} in body must be of type ${v.format}: ${goQuote(v.value)}`;
    case 'required':
      return `${name}.${v.property} in body is required`;
    case 'maxLength':
      return `${name} in body should be at most ${v.max} chars long`;
    case 'minLength':
      return `${name} in body should be at least ${v.min} chars long`;
    case 'pattern':
      return `${name} in body should match '${v.pattern}'`;
    case 'multipleOf':
      return `${name} in body should be a multiple of ${v.factor}`;
    case 'minimum':
      return `${name} in body should be greater than ${v.exclusive ? '' : 'or equal to '}${v.bound}`;
    case 'maximum':
      return `${name} in body should be less than ${v.exclusive ? '' : 'or equal to '}${v.bound}`;
    case 'minItems':
      return `${name} in body should have at least ${v.min} items`;
    case 'maxItems':
      return `${name} in body should have at most ${v.max} items`;
    case 'uniqueItems':
      return `${name} in body shouldn't contain duplicates`;
    case 'enum':
      return `${name} in body should be one of ${goV(v.values)}`;
    case 'minProperties':
      return `${name} in body should have at least ${v.min} properties`;
    case 'maxProperties':
      return `${name} in body should have at most ${v.max} properties`;
    case 'forbiddenProperty':
      return `${name}.${v.key} in body is a forbidden property`;
    case 'anyOf':
      return `${goQuote(name)} must validate at least one schema (anyOf)`;
    case 'oneOf':
      return `${goQuote(name)} must validate one and only one schema (oneOf). ${v.detail}`;
    case 'allOf':
      return `${goQuote(name)} must validate all the schemas (allOf)${v.detail}`;
    case 'not':
      return `${goQuote(name)} must not validate the schema (not)`;
  }
}

/**
 * The field path kube prints for an error of kube-openapi `errName` under `basePath` (nil for the whole object, then
 * printed as `<nil>` when the error has no name of its own).
 */
function fieldPath(basePath: string, errName: string): string {
  if (errName !== '' && errName !== '.') {
    const child = errName.startsWith('.') ? errName.slice(1) : errName;
    return basePath ? `${basePath}.${child}` : child;
  }
  return basePath || '<nil>';
}

/** The StatusCause kube-apiserver reports for a violation at validator path `name`. */
export function toCause(v: SchemaViolation, name: string, basePath: string): SchemaCause {
  const message = openAPIMessage(v, name);
  const invalid = (value: unknown, field = fieldPath(basePath, name)): SchemaCause => ({
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${kubeBadValue(value)}: ${message}`,
    field,
  });
  switch (v.t) {
    case 'type':
    case 'format':
      return { reason: 'FieldValueTypeInvalid', message: `Invalid value: ${goQuote(v.value)}: ${message}`, field: fieldPath(basePath, name) };
    case 'required':
      return { reason: 'FieldValueRequired', message: 'Required value', field: fieldPath(basePath, `${name}.${v.property}`) };
    case 'enum': {
      const supported = v.values.map((x) => goQuote(typeof x === 'string' ? x : goJSON(x)));
      const detail = supported.length ? `: supported values: ${supported.join(', ')}` : '';
      return { reason: 'FieldValueNotSupported', message: `Unsupported value: ${kubeBadValue(v.value)}${detail}`, field: fieldPath(basePath, name) };
    }
    case 'maxLength':
      return { reason: 'FieldValueTooLong', message: `Too long: may not be more than ${v.max} bytes`, field: fieldPath(basePath, name) };
    case 'maxItems':
      return { reason: 'FieldValueTooMany', message: `Too many: ${v.size}: must have at most ${v.max} items`, field: fieldPath(basePath, name) };
    case 'maxProperties':
      return { reason: 'FieldValueTooMany', message: `Too many: ${v.size}: must have at most ${v.max} items`, field: fieldPath(basePath, name) };
    case 'minLength':
    case 'pattern':
      return invalid(v.value);
    case 'multipleOf':
    case 'minimum':
    case 'maximum':
      return invalid(v.value);
    case 'minItems':
    case 'minProperties':
      return invalid(v.size);
    case 'uniqueItems':
      return invalid('');
    case 'forbiddenProperty':
      return invalid(v.key);
    case 'anyOf':
    case 'oneOf':
    case 'allOf':
    case 'not':
      // not a kube-openapi Validation error: reported on the validator's base path with an empty value
      return invalid('', basePath || '<nil>');
  }
}
