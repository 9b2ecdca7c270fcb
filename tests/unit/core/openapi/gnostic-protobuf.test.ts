// kapi's gnostic protobuf encoding of OpenAPI documents on the cases kube's documents hold, read back with an
// independent decoder (tests/helpers/gnostic-decoder.ts).
import test from 'ava';
import { openapiV3Protobuf, swaggerProtobuf } from '../../../../core/openapi/gnostic-protobuf.js';
import { asGnosticReadsIt, decodeGnostic, nonScalarDefault, openapiV3Json, swaggerJson } from '../../../helpers/gnostic-decoder.js';

const gvk = [{ group: 'example.com', kind: 'Widget', version: 'v1' }];

function swagger(definitions: Record<string, unknown>, paths: Record<string, unknown> = {}) {
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, definitions };
}

function openapiV3(schemas: Record<string, unknown>) {
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths: {}, components: { schemas } };
}

const v2RoundTrip = (doc: object) => swaggerJson(decodeGnostic('v2', swaggerProtobuf(JSON.stringify(doc))));
const v3RoundTrip = (doc: object) => openapiV3Json(decodeGnostic('v3', openapiV3Protobuf(JSON.stringify(doc))));

test('vendor extensions are NamedAny pairs holding block-style YAML, in the order of the JSON', (t) => {
  const doc = swagger({ W: { type: 'object', properties: {}, 'x-kubernetes-list-type': 'map', 'x-kubernetes-group-version-kind': gvk } });
  const decoded = decodeGnostic('v2', swaggerProtobuf(JSON.stringify(doc)));
  const extensions = decoded.definitions.additionalProperties[0].value.vendorExtension;
  t.deepEqual(extensions, [
    { name: 'x-kubernetes-list-type', value: { yaml: 'map\n' } },
    { name: 'x-kubernetes-group-version-kind', value: { yaml: '- group: example.com\n  kind: Widget\n  version: v1\n' } },
  ]);
});

test('a multi-line string on its own is double-quoted (libyaml-based readers want a literal block indented)', (t) => {
  const doc = swagger({ W: { type: 'string', default: 'line 1\nline "2"', 'x-rules': [{ rule: 'a &&\nb' }] } });
  const w = decodeGnostic('v2', swaggerProtobuf(JSON.stringify(doc))).definitions.additionalProperties[0].value;
  t.is(w.default.yaml, '"line 1\\nline \\"2\\""\n');
  t.is(w.vendorExtension[0].value.yaml, '- rule: |-\n      a &&\n      b\n', 'nested, a literal block is indented');
});

test('YAML texts read back as the same values with a YAML 1.1 reader (as kubectl reads them)', (t) => {
  const tricky = ['on', 'off', 'yes', 'No', 'y', '~', 'null', '1.0', '0x1F', '012', '1:20', '2001-12-14', '', 'a: b', '# x', ' padded '];
  const rule = 'self.replicas >= 0 &&\n  self.name != "it\'s"';
  const doc = swagger({
    W: {
      type: 'string',
      enum: tricky,
      default: 'on',
      'x-kubernetes-validations': [{ rule, message: 'must: hold' }],
      'x-kubernetes-map-type': 'granular',
    },
  });
  t.deepEqual(v2RoundTrip(doc), asGnosticReadsIt(doc, 'v2'));
});

test('types, items, properties in their JSON order and additionalProperties as schema or boolean (v2)', (t) => {
  const doc = swagger({
    W: {
      description: 'A widget.',
      type: 'object',
      required: ['spec'],
      properties: {
        spec: { type: 'object', properties: { zeta: { type: 'string' }, alpha: { type: ['string', 'null'] } } },
        labels: { type: 'object', additionalProperties: { type: 'string', default: '' } },
        closed: { type: 'object', additionalProperties: false },
        list: { type: 'array', items: { $ref: '#/definitions/V', default: {} } },
        count: { type: 'integer', format: 'int32', minimum: 0, maximum: 10, default: 0 },
      },
    },
  });
  const back = v2RoundTrip(doc);
  t.deepEqual(back, asGnosticReadsIt(doc, 'v2'));
  const w = (back.definitions as any).W;
  t.deepEqual(Object.keys(w.properties.spec.properties), ['zeta', 'alpha']);
  t.false('minimum' in w.properties.count, 'minimum: 0 is a proto3 zero');
  t.is(w.properties.count.default, 0, 'a default is YAML text, kept even when zero');
  t.is(w.properties.closed.additionalProperties, false, 'a oneof member is kept even when zero');
});

test('v2 parameters by where they go: body, path, query, and references', (t) => {
  const paths = {
    '/apis/example.com/v1/namespaces/{namespace}/widgets': {
      post: {
        operationId: 'createWidget',
        parameters: [
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/W' } },
          { uniqueItems: true, type: 'string', description: 'dry run', name: 'dryRun', in: 'query' },
          { $ref: '#/parameters/pretty' },
        ],
        responses: { '201': { description: 'Created', schema: { $ref: '#/definitions/W' } }, '401': { description: 'Unauthorized' } },
        'x-kubernetes-action': 'post',
      },
      parameters: [{ uniqueItems: true, type: 'string', description: 'object name and auth scope', name: 'namespace', in: 'path', required: true }],
    },
  };
  const doc = swagger({ W: { type: 'object' } }, paths);
  t.deepEqual(v2RoundTrip(doc), asGnosticReadsIt(doc, 'v2'));
});

test('v3 schema defaults: numbers, booleans and strings are kept (zero too), objects and lists leave it empty', (t) => {
  const doc = openapiV3({
    W: {
      type: 'object',
      properties: {
        n: { type: 'integer', default: 0 },
        x: { type: 'number', default: 1.5 },
        b: { type: 'boolean', default: false },
        s: { type: 'string', default: '' },
        o: { type: 'object', default: {} },
        l: { type: 'array', items: { type: 'string' }, default: ['a'] },
      },
    },
  });
  const back = v3RoundTrip(doc) as any;
  t.deepEqual(back, asGnosticReadsIt(doc, 'v3'));
  const props = back.components.schemas.W.properties;
  t.deepEqual([props.n.default, props.x.default, props.b.default, props.s.default], [0, 1.5, false, '']);
  t.is(props.o.default, nonScalarDefault);
  t.is(props.l.default, nonScalarDefault);
});

test('v3 references, allOf, nullable, additionalProperties and extensions', (t) => {
  const doc = openapiV3({
    W: {
      type: 'object',
      properties: {
        metadata: { allOf: [{ $ref: '#/components/schemas/M' }], default: {}, description: 'Standard metadata.' },
        items: { type: 'array', items: { $ref: '#/components/schemas/I' }, 'x-kubernetes-list-type': 'atomic' },
        maybe: { type: 'string', nullable: true },
        open: { type: 'object', additionalProperties: true, 'x-kubernetes-preserve-unknown-fields': true },
        map: { type: 'object', additionalProperties: { $ref: '#/components/schemas/I' } },
        either: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
      },
      'x-kubernetes-group-version-kind': gvk,
    },
  });
  t.deepEqual(v3RoundTrip(doc), asGnosticReadsIt(doc, 'v3'));
});
