/**
 * A CRD version's structural schema as TypeScript interfaces: the root kind first, then one interface per nested
 * object with properties (or embedded resource), named after its path (`WidgetSpec`, `WidgetSpecPortsItem`), in the
 * order the schema lists them.
 *
 * Types: enums are unions of their literals, int-or-string is `number | string`, arrays `T[]`, maps
 * (additionalProperties) `Record<string, T>`, preserve-unknown-fields an index signature (or `Record<string, unknown>`,
 * or `unknown` without a type), nullable adds `| null`, fields not in `required` are optional. allOf/anyOf/oneOf/not
 * only validate values in a structural schema, so they add nothing to the types.
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { GenTypesError } from './gen-types-error.js';
import type { TsInterface } from './ts-model.js';
import { pascalCase } from './ts-names.js';

export interface RootKind {
  kind: string;
  apiVersion: string;
  /** Added to the root's doc comment as `@deprecated`. */
  deprecated?: string;
}

/**
 * The interfaces of `schema` (the version's openAPIV3Schema); `where` prefixes errors (file, CRD, version) and
 * `path` is the schema's path in the CRD.
 */
export function schemaInterfaces(root: RootKind, schema: JSONSchemaProps, where: string, path: string): TsInterface[] {
  return new InterfaceCollector(where).root(root, schema, path);
}

const objectMeta = 'ObjectMeta';
const primitives: Record<string, string> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean' };

class InterfaceCollector {
  private readonly interfaces: TsInterface[] = [];
  private readonly names = new Set<string>();

  constructor(private readonly where: string) {}

  root(root: RootKind, schema: JSONSchemaProps, path: string): TsInterface[] {
    this.checkObject(schema, path);
    const docs = [schema.description, root.deprecated === undefined ? undefined : `@deprecated ${root.deprecated}`].filter((d) => d);
    const own = this.declare(root.kind, docs.join('\n\n'), schema);
    own.fields.push(
      { name: 'apiVersion', optional: false, type: JSON.stringify(root.apiVersion), ...docOf(schema, 'apiVersion') },
      { name: 'kind', optional: false, type: JSON.stringify(root.kind), ...docOf(schema, 'kind') },
      { name: 'metadata', optional: true, type: objectMeta, ...docOf(schema, 'metadata') },
    );
    this.addProperties(own, schema, path, root.kind, ['apiVersion', 'kind', 'metadata']);
    return this.interfaces;
  }

  private typeOf(schema: JSONSchemaProps, path: string, name: string): string {
    this.checkObject(schema, path);
    const type = this.baseType(schema, path, name);
    return schema.nullable && !/(^| )(null|unknown)( |$)/.test(type) ? `${type} | null` : type;
  }

  private baseType(schema: JSONSchemaProps, path: string, name: string): string {
    if (schema['x-kubernetes-int-or-string']) return 'number | string';
    if (schema.enum?.length) return this.enumType(schema.enum, path);
    const { type } = schema;
    if (type === undefined) {
      if (schema['x-kubernetes-embedded-resource']) return this.objectType(schema, path, name);
      if (schema['x-kubernetes-preserve-unknown-fields']) return schema.properties ? this.objectType(schema, path, name) : 'unknown';
      throw this.error(path, 'has no type (only x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields may leave it out)');
    }
    if (type in primitives) return primitives[type]!;
    if (type === 'array') {
      if (schema.items === undefined || Array.isArray(schema.items)) throw this.error(`${path}.items`, 'an array needs one items schema');
      return arrayOf(this.typeOf(schema.items, `${path}.items`, `${name}Item`));
    }
    if (type === 'object') return this.objectType(schema, path, name);
    throw this.error(`${path}.type`, `unsupported type ${JSON.stringify(type)}`);
  }

  private enumType(values: unknown[], path: string): string {
    return values
      .map((v, i) => {
        if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return JSON.stringify(v);
        throw this.error(`${path}.enum[${i}]`, 'only strings, numbers, booleans and null can be enum values');
      })
      .join(' | ');
  }

  private objectType(schema: JSONSchemaProps, path: string, name: string): string {
    const { properties, additionalProperties } = schema;
    if (properties && typeof additionalProperties === 'object') {
      throw this.error(path, 'properties and additionalProperties together are not a structural schema');
    }
    if (properties || schema['x-kubernetes-embedded-resource']) return this.objectInterface(schema, path, name);
    if (typeof additionalProperties === 'object') {
      return `Record<string, ${this.typeOf(additionalProperties, `${path}.additionalProperties`, `${name}Value`)}>`;
    }
    if (additionalProperties === true || schema['x-kubernetes-preserve-unknown-fields']) return 'Record<string, unknown>';
    return 'Record<string, never>';
  }

  /** A named interface; an embedded resource has apiVersion and kind (required) and ObjectMeta metadata. */
  private objectInterface(schema: JSONSchemaProps, path: string, name: string): string {
    const own = this.declare(name, schema.description, schema);
    if (schema['x-kubernetes-embedded-resource']) {
      const typeOf = (field: string) => {
        const declared = schema.properties?.[field];
        return declared ? this.typeOf(declared, `${path}.properties.${field}`, `${name}${pascalCase(field)}`) : 'string';
      };
      own.fields.push(
        { name: 'apiVersion', optional: false, type: typeOf('apiVersion'), ...docOf(schema, 'apiVersion') },
        { name: 'kind', optional: false, type: typeOf('kind'), ...docOf(schema, 'kind') },
        { name: 'metadata', optional: true, type: objectMeta, ...docOf(schema, 'metadata') },
      );
      this.addProperties(own, schema, path, name, ['apiVersion', 'kind', 'metadata']);
    } else {
      this.addProperties(own, schema, path, name, []);
    }
    return own.name;
  }

  /** Declares the interface before its fields' own, so parents come first. */
  private declare(wanted: string, doc: string | undefined, schema: JSONSchemaProps): TsInterface {
    let name = wanted;
    for (let n = 2; this.names.has(name); n++) name = `${wanted}${n}`;
    this.names.add(name);
    const declared: TsInterface = { name, fields: [], open: schema['x-kubernetes-preserve-unknown-fields'] === true, ...(doc ? { doc } : {}) };
    this.interfaces.push(declared);
    return declared;
  }

  private addProperties(own: TsInterface, schema: JSONSchemaProps, path: string, name: string, skip: string[]): void {
    const required = new Set(schema.required ?? []);
    for (const [field, prop] of Object.entries(schema.properties ?? {})) {
      if (skip.includes(field)) continue;
      const type = this.typeOf(prop, `${path}.properties.${field}`, `${name}${pascalCase(field)}`);
      own.fields.push({ name: field, optional: !required.has(field), type, ...docOf(schema, field) });
    }
  }

  private checkObject(schema: unknown, path: string): asserts schema is JSONSchemaProps {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw this.error(path, 'must be a schema (a mapping)');
    if ('$ref' in schema) throw this.error(`${path}.$ref`, '$ref is not allowed in a CRD schema');
  }

  private error(path: string, message: string): GenTypesError {
    return new GenTypesError(`${this.where}: ${path}: ${message}`);
  }
}

/** The doc of a property the schema describes, as a field's optional `doc`. */
function docOf(schema: JSONSchemaProps, field: string): { doc?: string } {
  const description = schema.properties?.[field]?.description;
  return description ? { doc: description } : {};
}

/** `T[]`, or `Array<T>` when T is not a single name. */
function arrayOf(type: string): string {
  return /^[\w.]+(\[\])*$/.test(type) ? `${type}[]` : `Array<${type}>`;
}
