/**
 * The field set a field selector is matched against: `metadata.name`, `metadata.namespace` and each selectable
 * field, named by its JSON path without the leading dot (`.spec.color` → `spec.color`).
 * Values are stringified as fmt.Sprint does for strings, integers and booleans; a missing or null value is ''.
 */
export function objectFieldSet(obj: object, extraJsonPaths: readonly string[] = []): Record<string, string> {
  const set: Record<string, string> = {};
  for (const path of ['.metadata.name', '.metadata.namespace', ...extraJsonPaths]) {
    const name = path.replace(/^\./, '');
    set[name] = stringify(lookup(obj, name.split('.')));
  }
  return set;
}

function lookup(obj: object, segments: string[]): unknown {
  let current: unknown = obj;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, segment)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function stringify(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}
