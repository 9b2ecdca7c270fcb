/*
 * Names in the generated .proto: identifiers protoc accepts (`[A-Za-z_][A-Za-z0-9_]*`) derived from JSON property
 * names, group and version, and the schema paths messages are recorded under in the field-number annotation.
 */

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Names a field must not have at run time: protobufjs keeps field defaults on message prototypes. */
const jsPrototypeNames = new Set([...Object.getOwnPropertyNames(Object.prototype), 'toJSON']);

/** A JSON property name as a protobuf field name: other characters become `_`, a leading digit gets a `_` before it. */
export function fieldIdentifier(jsonName: string): string {
  let name = jsonName.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
  return jsPrototypeNames.has(name) ? `${name}_` : name;
}

/** The JSON name protoc gives a field by default (its lowerCamelCase form), to know when `json_name` must be spelled out. */
export function protocJsonName(fieldName: string): string {
  let out = '';
  let upperNext = false;
  for (const ch of fieldName) {
    if (ch === '_') upperNext = true;
    else {
      out += upperNext ? ch.toUpperCase() : ch;
      upperNext = false;
    }
  }
  return out;
}

/** A JSON property name as part of a message name: `podSelector` -> `PodSelector`, `x-ray.io` -> `XRayIo`. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return joined || 'Field';
}

/** A kind as a message name (kinds are alphanumeric already; anything else is made an identifier). */
export function messageIdentifier(kind: string): string {
  const name = pascalCase(kind);
  return /^[A-Za-z]/.test(name) ? name : `K${name}`;
}

/** The package of a group version: `example.com` + `v1` -> `example.com.v1` (each label made an identifier). */
export function protoPackage(group: string, version: string): string {
  return [...group.split('.'), version]
    .map((label) => {
      const name = label.replace(/[^A-Za-z0-9_]/g, '_');
      return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
    })
    .join('.');
}

/** Whether protoc accepts `name` as an identifier. */
export function isIdentifier(name: string): boolean {
  return identifier.test(name);
}

/** The root of a version's schema paths. */
export const rootPath = '$';

/** The path of a property of the object at `path`: `$.spec`, `$["a.b"]`. */
export function propertyPath(path: string, name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

/** The path of the items of the list at `path`: `$.spec.ports[]`. */
export function itemsPath(path: string): string {
  return `${path}[]`;
}

/** The path of the values of the map at `path`: `$.spec.labels{}`. */
export function valuesPath(path: string): string {
  return `${path}{}`;
}
