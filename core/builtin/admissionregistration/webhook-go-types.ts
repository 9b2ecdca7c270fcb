/**
 * Go types described just enough to tell whether a JSON value decodes into them, and encoding/json's error when it
 * does not (`json: cannot unmarshal string into Go struct field ValidatingWebhook.webhooks.timeoutSeconds of type
 * int32`). Used for webhook configurations and for AdmissionReview responses. Fields not listed are not looked at.
 */
export type GoType =
  | { kind: 'string' | 'int32' | 'bool' | 'bytes'; name: string }
  | { kind: 'struct'; name: string; fields: Record<string, GoType> }
  | { kind: 'slice'; name: string; elem: GoType }
  | { kind: 'map'; name: string; value: GoType };

export const goTypes = {
  string: (name = 'string'): GoType => ({ kind: 'string', name }),
  int32: { kind: 'int32', name: 'int32' } as GoType,
  bool: { kind: 'bool', name: 'bool' } as GoType,
  bytes: { kind: 'bytes', name: '[]uint8' } as GoType,
  slice: (elem: GoType): GoType => ({ kind: 'slice', name: `[]${elem.name}`, elem }),
  map: (value: GoType): GoType => ({ kind: 'map', name: `map[string]${value.name}`, value }),
  struct: (name: string, fields: Record<string, GoType>): GoType => ({ kind: 'struct', name, fields }),
};

/** encoding/json's name of a JSON value's type in UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return `number ${v}`;
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'string' ? 'string' : 'object';
}

/** Go's base64.StdEncoding.DecodeString error (newlines are skipped, as Go does). */
function base64Error(s: string): string | undefined {
  const data = s.replace(/[\r\n]/g, '');
  const bad = data.search(/[^A-Za-z0-9+/=]|=[^=]|={3}/);
  if (bad >= 0) return `illegal base64 data at input byte ${data[bad] === '=' ? bad + 1 : bad}`;
  if (data.length % 4 !== 0) return `illegal base64 data at input byte ${data.length - (data.length % 4)}`;
  return undefined;
}

interface Context {
  struct: string;
  path: string[];
}

function check(value: unknown, type: GoType, ctx: Context): string | undefined {
  if (value === null || value === undefined) return undefined;
  const mismatch = () => `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${ctx.struct}.${ctx.path.join('.')} of type ${type.name}`;
  switch (type.kind) {
    case 'string':
      return typeof value === 'string' ? undefined : mismatch();
    case 'bool':
      return typeof value === 'boolean' ? undefined : mismatch();
    case 'int32':
      return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 ? undefined : mismatch();
    case 'bytes':
      return typeof value === 'string' ? base64Error(value) : mismatch();
    case 'slice':
      if (!Array.isArray(value)) return mismatch();
      for (const item of value) {
        const err = check(item, type.elem, ctx);
        if (err) return err;
      }
      return undefined;
    case 'map':
      if (typeof value !== 'object' || Array.isArray(value)) return mismatch();
      for (const item of Object.values(value)) {
        const err = check(item, type.value, ctx);
        if (err) return err;
      }
      return undefined;
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return mismatch();
      const name = type.name.replace(/^[a-z0-9]+\./, '');
      for (const [key, fieldType] of Object.entries(type.fields)) {
        const err = check((value as Record<string, unknown>)[key], fieldType, { struct: name, path: [...ctx.path, key] });
        if (err) return err;
      }
      return undefined;
    }
  }
}

/** The first error decoding a JSON object into a Go struct type, or undefined when it decodes. */
export function goDecodeError(obj: object, type: GoType & { kind: 'struct' }): string | undefined {
  return check(obj, type, { struct: type.name.replace(/^[a-z0-9]+\./, ''), path: [] });
}

/** The JSON form of a Go type's zero value. */
function zeroValue(type: GoType): unknown {
  switch (type.kind) {
    case 'string':
    case 'bytes':
      return '';
    case 'int32':
      return 0;
    case 'bool':
      return false;
    case 'struct':
      return {};
    default:
      return null;
  }
}

/**
 * What decoding into the Go type makes of JSON nulls inside lists and maps: the element's zero value (`""`, `0`,
 * `{}`), as encoding/json leaves it. Call only on a value `goDecodeError` accepted.
 */
export function fillGoZeroValues(value: unknown, type: GoType): void {
  if (value === null || typeof value !== 'object') return;
  if (type.kind === 'slice' && Array.isArray(value)) {
    value.forEach((item, i) => {
      if (item === null) value[i] = zeroValue(type.elem);
      else fillGoZeroValues(item, type.elem);
    });
  } else if (type.kind === 'map') {
    const map = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(map)) {
      if (v === null) map[k] = zeroValue(type.value);
      else fillGoZeroValues(v, type.value);
    }
  } else if (type.kind === 'struct') {
    for (const [k, fieldType] of Object.entries(type.fields)) fillGoZeroValues((value as Record<string, unknown>)[k], fieldType);
  }
}
