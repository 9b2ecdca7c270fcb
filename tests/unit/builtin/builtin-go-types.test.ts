// Every built-in kind the default modules serve: its Go type (which drops the fields it lacks) against its published
// schema. A field the schema has and the Go type lacks would be silently dropped from every write.
import test from 'ava';
import { createApiServer, resolveAllOrNone } from '../../../core/server/create-api-server.js';
import { Tokens } from '../../../core/contracts/tokens.js';
import { defaultModules } from '../../../index.js';
import { goTypes as t_, type GoType } from '../../../lib/go/json-decoding.js';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';

/** The Go type a custom UnmarshalJSON decodes a value of the schema's type as (an object or a list), if any. */
function resolved(type: GoType, schema: JSONSchemaProps): GoType | undefined {
  if (type.kind !== 'unmarshaler') return type;
  const sample = schema.type === 'array' || schema.items ? [] : {};
  const as = type.decodeAs(sample);
  return typeof as === 'object' ? as : undefined;
}

function fieldsOf(type: GoType & { kind: 'struct' }): Record<string, GoType> {
  return typeof type.fields === 'function' ? type.fields() : type.fields;
}

/** Where the Go type and the schema disagree on the fields of a struct, walking both (each struct type once per path). */
function mismatches(schema: JSONSchemaProps, goType: GoType, path: string, found: string[], seen: Set<string>): void {
  const type = resolved(goType, schema);
  if (!type || type.kind === 'json' || seen.has(`${path} ${type.name}`)) return;
  seen.add(`${path} ${type.name}`);
  if (schema.properties) {
    if (type.kind !== 'struct') return void found.push(`${path}: the schema has properties, the Go type is ${type.kind} ${type.name}`);
    const fields = fieldsOf(type);
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(fields, name)) found.push(`${path}.${name}: in the schema, missing from ${type.name}`);
      else mismatches(prop, fields[name], `${path}.${name}`, found, seen);
    }
    for (const name of Object.keys(fields)) {
      if (!Object.hasOwn(schema.properties, name)) found.push(`${path}.${name}: in ${type.name}, missing from the schema`);
    }
  }
  if (schema.items && !Array.isArray(schema.items) && type.kind === 'slice') mismatches(schema.items, type.elem, `${path}[]`, found, seen);
  const additional = schema.additionalProperties;
  if (additional && typeof additional === 'object' && type.kind === 'map') mismatches(additional, type.value, `${path}{}`, found, seen);
}

test('the comparison walks structs, lists, maps and custom unmarshalers, both ways', (t) => {
  const leaf = t_.struct('v1.Leaf', { a: t_.string(), extra: t_.string() });
  const goType = t_.struct('v1.Root', {
    list: t_.slice(leaf),
    byKey: t_.map(leaf),
    either: t_.unmarshaler('v1.LeafOrString', (v) => (typeof v === 'string' ? undefined : leaf)),
    raw: t_.json('runtime.RawExtension'),
  });
  const leafSchema: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { list: { type: 'array', items: leafSchema }, byKey: { type: 'object', additionalProperties: leafSchema }, either: leafSchema, raw: leafSchema },
  };
  const found: string[] = [];
  mismatches(schema, goType, 'Root', found, new Set());
  t.deepEqual(found, [
    'Root.list[].b: in the schema, missing from v1.Leaf',
    'Root.list[].extra: in v1.Leaf, missing from the schema',
    'Root.byKey{}.b: in the schema, missing from v1.Leaf',
    'Root.byKey{}.extra: in v1.Leaf, missing from the schema',
    'Root.either.b: in the schema, missing from v1.Leaf',
    'Root.either.extra: in v1.Leaf, missing from the schema',
  ]);
});

const server = createApiServer({ modules: defaultModules({ storage: 'memory' }) });
const builtins = resolveAllOrNone(server.container, Tokens.BuiltinResource);

test('the default modules serve built-in kinds, each with a Go type', (t) => {
  t.true(builtins.length >= 8);
  t.deepEqual(
    builtins.filter((rt) => !rt.goType).map((rt) => rt.names.kind),
    [],
  );
});

for (const rt of builtins) {
  for (const version of rt.versions.filter((v) => v.served && v.schema)) {
    test(`${rt.names.kind} ${rt.group ? `${rt.group}/` : ''}${version.name}: its Go type has exactly the fields of its published schema`, (t) => {
      const found: string[] = [];
      if (rt.goType) mismatches(version.schema as JSONSchemaProps, rt.goType, rt.names.kind, found, new Set());
      t.deepEqual(found, []);
    });
  }
}
