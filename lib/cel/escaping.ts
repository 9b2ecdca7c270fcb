/**
 * Kubernetes' escaping of property names for CEL (k8s.io/apiserver/pkg/cel Escape): only names of the form
 * `[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*` are accessible; `__` → `__underscores__`, `.` → `__dot__`, `-` → `__dash__`,
 * `/` → `__slash__`, and CEL reserved words become `__{word}__`.
 */

/** CEL's reserved words that are not also literals or operators (the parser rejects them as identifiers). */
export const CEL_RESERVED_WORDS: readonly string[] = [
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
];

const RESERVED = new Set(['true', 'false', 'null', 'in', ...CEL_RESERVED_WORDS]);

/** The CEL identifier for a property name, or undefined when the name cannot be accessed from CEL. */
export function escapeProperty(name: string): string | undefined {
  if (name === '' || (name[0] >= '0' && name[0] <= '9')) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__|[-./]/g, (m) => (m === '__' ? '__underscores__' : m === '.' ? '__dot__' : m === '-' ? '__dash__' : '__slash__'));
}

/** The property name of an escaped CEL identifier (the inverse of {@link escapeProperty}). */
export function unescapeProperty(ident: string): string {
  const m = /^__([a-z]+)__$/.exec(ident);
  if (m && RESERVED.has(m[1])) return m[1];
  return ident.replace(/__(underscores|dot|dash|slash)__/g, (_s, w: string) => ({ underscores: '__', dot: '.', dash: '-', slash: '/' })[w]!);
}

/** Whether a name is one of CEL's reserved symbols (which Kubernetes escapes as `__{word}__`). */
export function isReservedSymbol(name: string): boolean {
  return RESERVED.has(name);
}
