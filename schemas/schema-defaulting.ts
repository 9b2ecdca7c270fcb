/**
 * Structural defaulting, as kube-apiserver applies a CRD schema's `default`s (apiextensions-apiserver
 * schema/defaulting): a default fills a property that is absent, or null when the property is not nullable; defaults
 * are copied, and the defaulted values are defaulted further. Only properties, additionalProperties and items count.
 */
import type { JSONSchemaProps } from '../lib/openapi/json-schema-props.js';

type JSONObject = Record<string, unknown>;

function isObject(x: unknown): x is JSONObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function hasDefault(s: JSONSchemaProps): boolean {
  return s.default !== undefined && s.default !== null;
}

function isNonNullableNull(x: unknown, s: JSONSchemaProps | undefined): s is JSONSchemaProps {
  return x === null && s !== undefined && s.nullable !== true;
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

function own<T>(o: Record<string, T> | undefined, k: string): T | undefined {
  return o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

/** Applies the defaults of `s` to `x`, in place. */
export function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      if (!hasDefault(prop)) continue;
      if (!Object.prototype.hasOwnProperty.call(x, k) || isNonNullableNull(x[k], prop)) x[k] = copy(prop.default);
    }
    const ap = s.additionalProperties;
    const additional = typeof ap === 'object' && ap !== null ? ap : undefined;
    for (const k of Object.keys(x)) {
      const prop = own(s.properties, k);
      if (prop) {
        applyDefaults(x[k], prop);
      } else if (ap !== undefined && ap !== null) {
        if (isNonNullableNull(x[k], additional) && hasDefault(additional)) x[k] = copy(additional.default);
        applyDefaults(x[k], additional);
      }
    }
  } else if (Array.isArray(x)) {
    const items = typeof s.items === 'object' && s.items !== null && !Array.isArray(s.items) ? s.items : undefined;
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items) && hasDefault(items)) x[i] = copy(items.default);
      applyDefaults(x[i], items);
    }
  }
}
