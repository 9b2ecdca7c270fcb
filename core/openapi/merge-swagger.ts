import { isDeepStrictEqual } from 'node:util';

/** The parts of a Swagger 2.0 spec merging touches. */
export interface SwaggerSpec {
  paths?: Record<string, unknown>;
  definitions?: Record<string, unknown>;
  [key: string]: unknown;
}

const definitionPrefix = '#/definitions/';

/** A Swagger spec's paths and definitions, each value serialized as JSON. */
export interface SerializedSwagger {
  paths: Map<string, string>;
  definitions: Map<string, string>;
}

/**
 * Merges a backend's spec into `dest` as kube's aggregator does (kube-openapi's MergeSpecsIgnorePathConflict): paths
 * `dest` has already stay as they are, and when some were dropped so are the definitions only they used; a definition
 * equal to `dest`'s of the same name is shared, a different one is renamed `<name>_v2` (`_v3`, … the first free
 * name) and the backend's references follow. `dest` is changed, `source` is not.
 */
export function mergeSwagger(dest: SerializedSwagger, source: SwaggerSpec): void {
  const sourcePaths = source.paths ?? {};
  const kept = Object.keys(sourcePaths).filter((p) => !dest.paths.has(p));
  if (!kept.length) return;
  const paths = Object.fromEntries(kept.map((p) => [p, sourcePaths[p]]));
  let definitions = source.definitions ?? {};
  if (kept.length < Object.keys(sourcePaths).length) definitions = usedDefinitions(paths, definitions);

  const used = new Set(dest.definitions.keys());
  const renames = new Map<string, string>();
  for (const [name, schema] of Object.entries(definitions)) {
    if (!used.has(name)) {
      used.add(name);
      continue;
    }
    const existing = dest.definitions.get(name);
    if (existing !== undefined && isDeepStrictEqual(schema, JSON.parse(existing))) continue;
    let i = 2;
    while (used.has(`${name}_v${i}`) || `${name}_v${i}` in definitions) i++;
    renames.set(name, `${name}_v${i}`);
    used.add(`${name}_v${i}`);
  }
  const renamed = renames.size ? (withRefsRenamed({ paths, definitions }, renames) as typeof source) : { paths, definitions };
  for (const [path, item] of Object.entries(renamed.paths ?? {})) if (item !== undefined) dest.paths.set(path, JSON.stringify(item));
  for (const [name, schema] of Object.entries(renamed.definitions ?? {})) {
    const to = renames.get(name) ?? name;
    if (!dest.definitions.has(to) && schema !== undefined) dest.definitions.set(to, JSON.stringify(schema));
  }
}

/** The definitions the paths reference, directly or through each other. */
function usedDefinitions(paths: Record<string, unknown>, definitions: Record<string, unknown>): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const queue: unknown[] = [paths];
  while (queue.length) {
    const node = queue.pop();
    if (!node || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(definitionPrefix)) {
        const name = value.slice(definitionPrefix.length);
        if (name in definitions && !(name in found)) {
          found[name] = definitions[name];
          queue.push(definitions[name]);
        }
      } else queue.push(value);
    }
  }
  return found;
}

/** A deep copy with every `$ref` to a renamed definition pointing to its new name. */
function withRefsRenamed(node: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((n) => withRefsRenamed(n, renames));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(definitionPrefix)) {
        const to = renames.get(value.slice(definitionPrefix.length));
        return [key, to ? definitionPrefix + to : value];
      }
      return [key, withRefsRenamed(value, renames)];
    }),
  );
}
