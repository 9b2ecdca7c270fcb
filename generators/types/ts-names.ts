/** Names in generated TypeScript: identifiers from JSON names and kinds. */

/** `metadata-labels` → `MetadataLabels`: a part of an interface name. */
export function pascalCase(name: string): string {
  const joined = name.replace(/(?:^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
  return /^[A-Za-z]/.test(joined) ? joined : `F${joined}`;
}

/** `Widget` → `widget`, `URLMap` → `urlMap`: the stem of a kind's function names. */
export function camelCase(kind: string): string {
  return kind.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (m) => m.toLowerCase());
}

/** `FooBar` → `foo-bar`: a kind's file name stem. */
export function kebabCase(kind: string): string {
  return camelCase(kind).replace(/[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]/g, (m) => `-${m.toLowerCase()}`);
}

/** A property key as written in an interface: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
