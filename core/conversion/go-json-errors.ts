/**
 * The texts of Go's encoding/json errors for a webhook answer kube cannot decode, so that conversion failures read
 * as kube-apiserver's.
 */

/** How encoding/json names a JSON value's type in an UnmarshalTypeError. */
export function jsonValueType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** `json: cannot unmarshal <value> into Go struct field <Struct>.<path> of type <type>`. */
export function unmarshalFieldError(value: unknown, struct: string, path: string, type: string): string {
  return `json: cannot unmarshal ${jsonValueType(value)} into Go struct field ${struct}.${path} of type ${type}`;
}

/** `json: cannot unmarshal <value> into Go value of type <type>`. */
export function unmarshalValueError(value: unknown, type: string): string {
  return `json: cannot unmarshal ${jsonValueType(value)} into Go value of type ${type}`;
}

/**
 * Go's SyntaxError text for a body that is not JSON. Go reports the first offending character; JSON.parse's messages
 * differ, so the common cases are rendered the Go way and the rest keep the position JSON.parse found.
 */
export function jsonSyntaxError(text: string, err: Error): string {
  const trimmed = text.trimStart();
  if (trimmed === '') return 'unexpected end of JSON input';
  const first = trimmed[0]!;
  if (!'{["-0123456789tfn'.includes(first)) return `invalid character ${goCharQuote(first)} looking for beginning of value`;
  if (/Unexpected end of JSON input/.test(err.message)) return 'unexpected end of JSON input';
  return err.message;
}

/** Go's quoteChar: `'x'`, with `'\''` and `'"'` special-cased as encoding/json does. */
function goCharQuote(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const code = c.codePointAt(0)!;
  if (code < 0x20) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}
