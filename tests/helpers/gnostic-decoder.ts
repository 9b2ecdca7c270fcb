/**
 * A reader of gnostic's OpenAPI protobuf documents for tests, independent of kapi's encoder: its own protobufjs JSON
 * descriptor of the gnostic messages a Kubernetes document uses (numbers from gnostic's OpenAPIv2.proto and
 * OpenAPIv3.proto), and the way back to OpenAPI JSON — `Named*` pairs to objects, `Any` YAML texts parsed as YAML 1.1
 * (as kubectl's yaml.v2 does), oneofs to the member that is set — so a decoded document can be compared with the JSON
 * answer as a whole.
 */
import protobuf from 'protobufjs';
import YAML from 'yaml';

type Fields = Record<string, { id: number; type: string; rule?: 'repeated' }>;
type Messages = Record<string, { fields: Fields; oneofs?: Record<string, { oneof: string[] }> }>;

const f = (id: number, type: string) => ({ id, type });
const r = (id: number, type: string) => ({ id, type, rule: 'repeated' as const });
const oneof = (fields: Fields) => ({ fields, oneofs: { oneof: { oneof: Object.keys(fields) } } });
const named = (type: string) => ({ fields: { name: f(1, 'string'), value: f(2, type) } });
const map = (type: string) => ({ fields: { additionalProperties: r(1, type) } });

/** Messages both versions share by name and shape. */
const common: Messages = {
  Any: { fields: { yaml: f(2, 'string') } },
  NamedAny: named('Any'),
  NamedStringArray: named('StringArray'),
  StringArray: { fields: { value: r(1, 'string') } },
  SecurityRequirement: map('NamedStringArray'),
};

const v2: Messages = {
  ...common,
  Document: {
    fields: {
      swagger: f(1, 'string'), info: f(2, 'Info'), paths: f(8, 'Paths'), definitions: f(9, 'Definitions'),
      security: r(12, 'SecurityRequirement'), securityDefinitions: f(13, 'SecurityDefinitions'), vendorExtension: r(16, 'NamedAny'),
    },
  },
  Info: { fields: { title: f(1, 'string'), version: f(2, 'string') } },
  Paths: { fields: { path: r(2, 'NamedPathItem') } },
  NamedPathItem: named('PathItem'),
  PathItem: {
    fields: {
      get: f(2, 'Operation'), put: f(3, 'Operation'), post: f(4, 'Operation'), delete: f(5, 'Operation'), patch: f(8, 'Operation'),
      parameters: r(9, 'ParametersItem'),
    },
  },
  Operation: {
    fields: {
      tags: r(1, 'string'), description: f(3, 'string'), operationId: f(5, 'string'), produces: r(6, 'string'), consumes: r(7, 'string'),
      parameters: r(8, 'ParametersItem'), responses: f(9, 'Responses'), schemes: r(10, 'string'), vendorExtension: r(13, 'NamedAny'),
    },
  },
  ParametersItem: oneof({ parameter: f(1, 'Parameter'), jsonReference: f(2, 'JsonReference') }),
  JsonReference: { fields: { ref: f(1, 'string') } },
  Parameter: oneof({ bodyParameter: f(1, 'BodyParameter'), nonBodyParameter: f(2, 'NonBodyParameter') }),
  BodyParameter: { fields: { description: f(1, 'string'), name: f(2, 'string'), in: f(3, 'string'), required: f(4, 'bool'), schema: f(5, 'Schema') } },
  NonBodyParameter: oneof({ query: f(3, 'QueryParameterSubSchema'), path: f(4, 'PathParameterSubSchema') }),
  QueryParameterSubSchema: {
    fields: { required: f(1, 'bool'), in: f(2, 'string'), description: f(3, 'string'), name: f(4, 'string'), type: f(6, 'string'), uniqueItems: f(20, 'bool') },
  },
  PathParameterSubSchema: {
    fields: { required: f(1, 'bool'), in: f(2, 'string'), description: f(3, 'string'), name: f(4, 'string'), type: f(5, 'string'), uniqueItems: f(19, 'bool') },
  },
  Responses: { fields: { responseCode: r(1, 'NamedResponseValue') } },
  NamedResponseValue: named('ResponseValue'),
  ResponseValue: oneof({ response: f(1, 'Response'), jsonReference: f(2, 'JsonReference') }),
  Response: { fields: { description: f(1, 'string'), schema: f(2, 'SchemaItem') } },
  SchemaItem: oneof({ schema: f(1, 'Schema') }),
  Definitions: map('NamedSchema'),
  NamedSchema: named('Schema'),
  Schema: {
    fields: {
      ref: f(1, 'string'), format: f(2, 'string'), description: f(4, 'string'), default: f(5, 'Any'), maximum: f(7, 'double'),
      minimum: f(9, 'double'), maxLength: f(11, 'int64'), minLength: f(12, 'int64'), pattern: f(13, 'string'), maxItems: f(14, 'int64'),
      minItems: f(15, 'int64'), required: r(19, 'string'), enum: r(20, 'Any'), additionalProperties: f(21, 'AdditionalPropertiesItem'),
      type: f(22, 'TypeItem'), items: f(23, 'ItemsItem'), properties: f(25, 'Properties'), vendorExtension: r(31, 'NamedAny'),
    },
  },
  AdditionalPropertiesItem: oneof({ schema: f(1, 'Schema'), boolean: f(2, 'bool') }),
  TypeItem: { fields: { value: r(1, 'string') } },
  ItemsItem: { fields: { schema: r(1, 'Schema') } },
  Properties: map('NamedSchema'),
  SecurityDefinitions: map('NamedSecurityDefinitionsItem'),
  NamedSecurityDefinitionsItem: named('SecurityDefinitionsItem'),
  SecurityDefinitionsItem: oneof({ apiKeySecurity: f(2, 'ApiKeySecurity') }),
  ApiKeySecurity: { fields: { type: f(1, 'string'), name: f(2, 'string'), in: f(3, 'string'), description: f(4, 'string') } },
};

const v3: Messages = {
  ...common,
  Document: { fields: { openapi: f(1, 'string'), info: f(2, 'Info'), paths: f(4, 'Paths'), components: f(5, 'Components'), security: r(6, 'SecurityRequirement') } },
  Info: { fields: { title: f(1, 'string'), version: f(6, 'string') } },
  Paths: { fields: { path: r(1, 'NamedPathItem') } },
  NamedPathItem: named('PathItem'),
  PathItem: {
    fields: {
      get: f(4, 'Operation'), put: f(5, 'Operation'), post: f(6, 'Operation'), delete: f(7, 'Operation'), patch: f(10, 'Operation'),
      parameters: r(13, 'ParameterOrReference'),
    },
  },
  Operation: {
    fields: {
      tags: r(1, 'string'), description: f(3, 'string'), operationId: f(5, 'string'), parameters: r(6, 'ParameterOrReference'),
      requestBody: f(7, 'RequestBodyOrReference'), responses: f(8, 'Responses'), specificationExtension: r(13, 'NamedAny'),
    },
  },
  ParameterOrReference: oneof({ parameter: f(1, 'Parameter'), reference: f(2, 'Reference') }),
  Parameter: { fields: { name: f(1, 'string'), in: f(2, 'string'), description: f(3, 'string'), required: f(4, 'bool'), schema: f(10, 'SchemaOrReference') } },
  RequestBodyOrReference: oneof({ requestBody: f(1, 'RequestBody'), reference: f(2, 'Reference') }),
  RequestBody: { fields: { content: f(2, 'MediaTypes'), required: f(3, 'bool') } },
  MediaTypes: map('NamedMediaType'),
  NamedMediaType: named('MediaType'),
  MediaType: { fields: { schema: f(1, 'SchemaOrReference') } },
  Responses: { fields: { responseOrReference: r(2, 'NamedResponseOrReference') } },
  NamedResponseOrReference: named('ResponseOrReference'),
  ResponseOrReference: oneof({ response: f(1, 'Response'), reference: f(2, 'Reference') }),
  Response: { fields: { description: f(1, 'string'), content: f(3, 'MediaTypes') } },
  Components: { fields: { schemas: f(1, 'SchemasOrReferences'), securitySchemes: f(7, 'SecuritySchemesOrReferences') } },
  SchemasOrReferences: map('NamedSchemaOrReference'),
  NamedSchemaOrReference: named('SchemaOrReference'),
  SchemaOrReference: oneof({ schema: f(1, 'Schema'), reference: f(2, 'Reference') }),
  Reference: { fields: { ref: f(1, 'string') } },
  Schema: {
    fields: {
      nullable: f(1, 'bool'), maximum: f(11, 'double'), minimum: f(13, 'double'), maxLength: f(15, 'int64'), minLength: f(16, 'int64'),
      pattern: f(17, 'string'), maxItems: f(18, 'int64'), minItems: f(19, 'int64'), uniqueItems: f(20, 'bool'), required: r(23, 'string'),
      enum: r(24, 'Any'), type: f(25, 'string'), allOf: r(26, 'SchemaOrReference'), oneOf: r(27, 'SchemaOrReference'),
      anyOf: r(28, 'SchemaOrReference'), items: f(30, 'ItemsItem'), properties: f(31, 'Properties'),
      additionalProperties: f(32, 'AdditionalPropertiesItem'), default: f(33, 'DefaultType'), description: f(34, 'string'),
      format: f(35, 'string'), specificationExtension: r(36, 'NamedAny'),
    },
  },
  ItemsItem: { fields: { schemaOrReference: r(1, 'SchemaOrReference') } },
  Properties: map('NamedSchemaOrReference'),
  AdditionalPropertiesItem: oneof({ schemaOrReference: f(1, 'SchemaOrReference'), boolean: f(2, 'bool') }),
  DefaultType: oneof({ number: f(1, 'double'), boolean: f(2, 'bool'), string: f(3, 'string') }),
  SecuritySchemesOrReferences: map('NamedSecuritySchemeOrReference'),
  NamedSecuritySchemeOrReference: named('SecuritySchemeOrReference'),
  SecuritySchemeOrReference: oneof({ securityScheme: f(1, 'SecurityScheme'), reference: f(2, 'Reference') }),
  SecurityScheme: { fields: { type: f(1, 'string'), description: f(2, 'string'), name: f(3, 'string'), in: f(4, 'string') } },
};

function documentType(pkg: string, messages: Messages): protobuf.Type {
  return protobuf.Root.fromJSON({ nested: { openapi: { nested: { [pkg]: { nested: messages } } } } }).lookupType(`openapi.${pkg}.Document`);
}

const documents = { v2: documentType('v2', v2), v3: documentType('v3', v3) };

type Decoded = Record<string, any>;

/** Decodes a gnostic Document (strict about the wire: protobufjs throws on bytes that are not a valid message). */
export function decodeGnostic(version: 'v2' | 'v3', bytes: Uint8Array): Decoded {
  const type = documents[version];
  return type.toObject(type.decode(bytes), { longs: Number, oneofs: false }) as Decoded;
}

// ---- back to OpenAPI JSON ------------------------------------------------------------------------------------------

const yaml = (any: Decoded) => YAML.parse(any.yaml, { version: '1.1' }) as unknown;

function pairs(list: Decoded[] | undefined, value: (v: Decoded) => unknown): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((p) => [p.name, value(p.value ?? {})]));
}

function withExtensions(out: Record<string, unknown>, extensions: Decoded[] | undefined): Record<string, unknown> {
  return { ...out, ...pairs(extensions, yaml) };
}

/** Only the keys that are set (proto3 drops zero values and empty lists, so does the JSON). */
function defined(out: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
}

/** The member of a decoded oneof that is set. */
function member(o: Decoded): [string, Decoded] {
  const set = Object.entries(o).filter(([, v]) => v !== undefined);
  if (set.length !== 1) throw new Error(`expected one oneof member, got ${JSON.stringify(o)}`);
  return set[0] as [string, Decoded];
}

function numbers(s: Decoded, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
}

const schemaNumbers = ['maximum', 'minimum', 'maxLength', 'minLength', 'maxItems', 'minItems'];

function v2Schema(s: Decoded): Record<string, unknown> {
  const additional = s.additionalProperties && member(s.additionalProperties);
  const types: string[] | undefined = s.type?.value;
  return withExtensions(
    defined({
      $ref: s.ref,
      description: s.description,
      type: types && (types.length === 1 ? types[0] : types),
      format: s.format,
      pattern: s.pattern,
      ...numbers(s, schemaNumbers),
      required: s.required,
      enum: s.enum?.map(yaml),
      default: s.default && yaml(s.default),
      items: s.items && v2Schema(s.items.schema[0]),
      properties: s.properties && pairs(s.properties.additionalProperties, v2Schema),
      additionalProperties: additional && (additional[0] === 'boolean' ? additional[1] : v2Schema(additional[1])),
    }),
    s.vendorExtension,
  );
}

function v2Parameter(item: Decoded): Record<string, unknown> {
  const [kind, p] = member(item);
  if (kind === 'jsonReference') return { $ref: p.ref };
  const [which, param] = member(p);
  if (which === 'bodyParameter') return defined({ name: param.name, in: param.in, required: param.required, description: param.description, schema: v2Schema(param.schema) });
  const [, sub] = member(param);
  return defined({ uniqueItems: sub.uniqueItems, type: sub.type, description: sub.description, name: sub.name, in: sub.in, required: sub.required });
}

function v2Operation(o: Decoded): Record<string, unknown> {
  return withExtensions(
    defined({
      description: o.description,
      consumes: o.consumes,
      produces: o.produces,
      schemes: o.schemes,
      tags: o.tags,
      operationId: o.operationId,
      parameters: o.parameters?.map(v2Parameter),
      responses: pairs(o.responses?.responseCode, (v) => {
        const [, resp] = member(v);
        return defined({ description: resp.description, schema: resp.schema && v2Schema(member(resp.schema)[1]) });
      }),
    }),
    o.vendorExtension,
  );
}

const methods = ['get', 'put', 'post', 'delete', 'patch'];

function pathItem(item: Decoded, operation: (o: Decoded) => unknown, parameter: (p: Decoded) => unknown): Record<string, unknown> {
  return defined({ ...Object.fromEntries(methods.filter((m) => item[m]).map((m) => [m, operation(item[m])])), parameters: item.parameters?.map(parameter) });
}

/** A decoded gnostic v2 Document as Swagger JSON (the parts a Kubernetes document has). */
export function swaggerJson(d: Decoded): Record<string, unknown> {
  return withExtensions(
    defined({
      swagger: d.swagger,
      info: d.info && defined({ title: d.info.title, version: d.info.version }),
      paths: pairs(d.paths?.path, (item) => pathItem(item, v2Operation, v2Parameter)),
      definitions: pairs(d.definitions?.additionalProperties, v2Schema),
      securityDefinitions: d.securityDefinitions && pairs(d.securityDefinitions.additionalProperties, (v) => defined({ ...member(v)[1] })),
      security: d.security?.map((s: Decoded) => pairs(s.additionalProperties, (a) => a.value ?? [])),
    }),
    d.vendorExtension,
  );
}

/** A schema default gnostic's v3 DefaultType cannot hold (an object or a list) reads back as this. */
export const nonScalarDefault = '<object or list>';

function v3Schema(so: Decoded): Record<string, unknown> {
  const [kind, s] = member(so);
  if (kind === 'reference') return { $ref: s.ref };
  const additional = s.additionalProperties && member(s.additionalProperties);
  return withExtensions(
    defined({
      description: s.description,
      type: s.type,
      format: s.format,
      pattern: s.pattern,
      nullable: s.nullable,
      uniqueItems: s.uniqueItems,
      ...numbers(s, schemaNumbers),
      required: s.required,
      enum: s.enum?.map(yaml),
      default: s.default && (Object.values(s.default).find((v) => v !== undefined) ?? nonScalarDefault),
      allOf: s.allOf?.map(v3Schema),
      oneOf: s.oneOf?.map(v3Schema),
      anyOf: s.anyOf?.map(v3Schema),
      items: s.items && v3Schema(s.items.schemaOrReference[0]),
      properties: s.properties && pairs(s.properties.additionalProperties, v3Schema),
      additionalProperties: additional && (additional[0] === 'boolean' ? additional[1] : v3Schema(additional[1])),
    }),
    s.specificationExtension,
  );
}

function content(mediaTypes: Decoded | undefined) {
  return mediaTypes && pairs(mediaTypes.additionalProperties, (m) => ({ schema: v3Schema(m.schema) }));
}

function v3Parameter(po: Decoded): Record<string, unknown> {
  const [kind, p] = member(po);
  if (kind === 'reference') return { $ref: p.ref };
  return defined({ name: p.name, in: p.in, description: p.description, required: p.required, schema: p.schema && v3Schema(p.schema) });
}

function v3Operation(o: Decoded): Record<string, unknown> {
  const body = o.requestBody && member(o.requestBody)[1];
  return withExtensions(
    defined({
      tags: o.tags,
      description: o.description,
      operationId: o.operationId,
      parameters: o.parameters?.map(v3Parameter),
      requestBody: body && defined({ content: content(body.content), required: body.required }),
      responses: pairs(o.responses?.responseOrReference, (v) => {
        const [, resp] = member(v);
        return defined({ description: resp.description, content: content(resp.content) });
      }),
    }),
    o.specificationExtension,
  );
}

/** A decoded gnostic v3 Document as OpenAPI 3 JSON (the parts a Kubernetes document has). */
export function openapiV3Json(d: Decoded): Record<string, unknown> {
  return defined({
    openapi: d.openapi,
    info: d.info && defined({ title: d.info.title, version: d.info.version }),
    paths: pairs(d.paths?.path, (item) => pathItem(item, v3Operation, v3Parameter)),
    components:
      d.components &&
      defined({
        schemas: d.components.schemas && pairs(d.components.schemas.additionalProperties, v3Schema),
        securitySchemes: d.components.securitySchemes && pairs(d.components.securitySchemes.additionalProperties, (v) => defined({ ...member(v)[1] })),
      }),
    security: d.security?.map((s: Decoded) => pairs(s.additionalProperties, (a) => a.value ?? [])),
  });
}

/** Objects whose keys are names (of properties, definitions, paths, status codes, media types), not OpenAPI fields. */
const nameMaps = new Set(['properties', 'definitions', 'schemas', 'paths', 'responses', 'content', 'securityDefinitions', 'securitySchemes']);

/**
 * The JSON document as it reads back from gnostic protobuf, which keeps no zero values: `minimum: 0`, `required: false`,
 * empty strings and lists are gone (defaults, extensions and `additionalProperties: false` stay), and in v3 a schema
 * default that is an object or a list reads back as `nonScalarDefault`.
 */
export function asGnosticReadsIt(json: unknown, version: 'v2' | 'v3'): unknown {
  const walk = (value: unknown, names: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, false));
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value).flatMap(([k, v]): [string, unknown][] => {
      if (names) return [[k, walk(v, false)]];
      if (k.startsWith('x-') || k === 'security') return [[k, v]];
      if (k === 'default') return [[k, version === 'v3' && v !== null && typeof v === 'object' ? nonScalarDefault : v]];
      const zero = v === 0 || v === false || v === '' || (Array.isArray(v) && v.length === 0);
      if (zero && k !== 'additionalProperties') return [];
      return [[k, walk(v, nameMaps.has(k))]];
    });
    return Object.fromEntries(entries);
  };
  return walk(json, false);
}
