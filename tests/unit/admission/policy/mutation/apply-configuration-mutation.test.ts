import test from 'ava';
import { runMutation } from '../../../../helpers/map-mutation.js';
import type { KubeObject } from '../../../../../core/contracts/resource-type.js';
import type { JSONSchemaProps } from '../../../../../lib/openapi/json-schema-props.js';

const str: JSONSchemaProps = { type: 'string' };
const int: JSONSchemaProps = { type: 'integer' };

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: int,
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: str, port: int, protocol: str } },
        },
        finalizers: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
        args: { type: 'array', items: str },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: str, tier: str } },
        settings: { type: 'object', additionalProperties: str },
        template: { type: 'object', properties: { image: str, pullPolicy: str } },
        extra: { 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

const widget = (): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'ns', labels: { app: 'web' } },
  spec: {
    replicas: 1,
    ports: [
      { name: 'http', port: 80 },
      { name: 'https', port: 443 },
    ],
    finalizers: ['a'],
    args: ['--x'],
    selector: { app: 'web' },
    settings: { mode: 'fast' },
    template: { image: 'nginx', pullPolicy: 'Always' },
  },
});

const apply = (expression: string) => runMutation('ApplyConfiguration', expression, widget(), schema);
const applyWithoutSchema = (expression: string) => runMutation('ApplyConfiguration', expression, widget());

test('fields and maps merge into the object; fields not mentioned stay', (t) => {
  const r = apply('Object{metadata: Object.metadata{labels: {"tier": "front"}}, spec: Object.spec{replicas: 3, settings: {"size": "l"}, template: Object.spec.template{image: "nginx:2"}}}');
  t.is(r.error, undefined);
  t.deepEqual(r.object?.metadata, { name: 'w', namespace: 'ns', labels: { app: 'web', tier: 'front' } });
  const spec = r.object?.spec as Record<string, unknown>;
  t.is(spec.replicas, 3);
  t.deepEqual(spec.settings, { mode: 'fast', size: 'l' });
  t.deepEqual(spec.template, { image: 'nginx:2', pullPolicy: 'Always' });
  t.deepEqual(spec.args, ['--x']);
});

test('map lists merge item by key, sets by value', (t) => {
  const r = apply(`Object{spec: Object.spec{
    ports: [Object.spec.ports{name: "https", protocol: "TCP"}, Object.spec.ports{name: "metrics", port: 9090}],
    finalizers: ["b", "a"]
  }}`);
  t.is(r.error, undefined);
  const spec = r.object?.spec as Record<string, unknown>;
  t.deepEqual(spec.ports, [
    { name: 'http', port: 80 },
    { name: 'https', port: 443, protocol: 'TCP' },
    { name: 'metrics', port: 9090 },
  ]);
  t.deepEqual(spec.finalizers, ['b', 'a']);
});

test('atomic lists, structs and maps, and lists without a schema, are refused', (t) => {
  t.is(apply('Object{spec: Object.spec{args: ["--y"]}}').error, 'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.args');
  t.is(
    apply('Object{spec: Object.spec{selector: Object.spec.selector{tier: "db"}, extra: [1]}}').error,
    'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector, .spec.extra',
  );
  t.is(
    apply('Object{metadata: Object.metadata{ownerReferences: [Object.metadata.ownerReferences{uid: "u", name: "o", kind: "K", apiVersion: "v1"}]}}').error,
    'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .metadata.ownerReferences[0]',
  );
});

test('fields the schema does not declare, and map-list items without their key, are refused', (t) => {
  t.is(apply('Object{spec: Object.spec{replica: 3}}').error, 'error applying patch: failed to convert patch object to typed object: .spec.replica: field not declared in schema');
  t.is(
    apply('Object{spec: Object.spec{ports: [Object.spec.ports{port: 1}]}}').error,
    'error applying patch: failed to convert patch object to typed object: .spec.ports: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
  );
});

test("values of another kind than the schema's (a map for a list, a list or a string for a map) are refused as SMD words it", (t) => {
  const notTyped = 'error applying patch: failed to convert patch object to typed object: ';
  t.is(apply('Object{spec: Object.spec{ports: {"http": 80}}}').error, `${notTyped}.spec.ports: expected list, got &{map[http:80]}`);
  t.is(apply('Object{spec: Object.spec{settings: ["fast"]}}').error, `${notTyped}.spec.settings: expected map, got &{[fast]}`);
  t.is(apply('Object{spec: Object.spec{template: "nginx"}}').error, `${notTyped}.spec.template: expected map, got &{nginx}`);
  t.is(apply('Object{metadata: Object.metadata{finalizers: {"a": "b"}}}').error, `${notTyped}.metadata.finalizers: expected list, got &{map[a:b]}`);
  t.is(apply('Object{spec: Object.spec{ports: [Object.spec.ports{name: "http", port: 80}], settings: {"mode": "slow"}}}').error, undefined);
});

test('without a schema objects merge as deduced: maps granular, lists replaced', (t) => {
  const r = applyWithoutSchema('Object{spec: Object.spec{template: Object.spec.template{image: "nginx:3"}, anything: 1}}');
  t.deepEqual(r.object?.spec, { ...(widget().spec as object), template: { image: 'nginx:3', pullPolicy: 'Always' }, anything: 1 });
  // undeclared fields are not searched for atomics (SMD's FindField), so a list under them is simply replaced
  t.deepEqual((applyWithoutSchema('Object{spec: Object.spec{args: ["--z"]}}').object?.spec as { args: string[] }).args, ['--z']);
});

test('nested type names must follow the field path from Object', (t) => {
  t.is(
    apply('Object{spec: Object.spec{template: Object.spec.templates{image: "x"}}}').error,
    'type mismatch: unexpected type name "Object.spec.templates", expected "Object.spec.template", which matches field name path from root Object type',
  );
  t.is(
    apply('Object{spec: Object.spec{ports: [Object.spec.port{name: "x"}]}}').error,
    'type mismatch: unexpected type name "Object.spec.port", expected "Object.spec.ports", which matches field name path from root Object type',
    'list items take the name of their list field',
  );
});

test('the expression must build an Object; other results are compile errors', (t) => {
  t.is(apply('Object.spec{replicas: 2}').error, 'must evaluate to Object but got Object.spec');
  t.is(apply('{"spec": {"replicas": 2}}').error, 'must evaluate to Object but got map(string, map(string, int))');
  t.is(apply('object').error, 'must evaluate to Object but got dyn');
  t.is(
    apply('Objects{}').error,
    "compilation failed: ERROR: <input>:1:8: undeclared reference to 'Objects' (in container '')\n | Objects{}\n | .......^",
  );
});

test('values computed from the object, params-free variables included', (t) => {
  const r = runMutation(
    'ApplyConfiguration',
    'Object{metadata: Object.metadata{labels: {"replicas": string(object.spec.replicas), "owner": variables.owner}}}',
    widget(),
    schema,
    { owner: '"team-" + object.metadata.name' },
  );
  t.deepEqual(r.object?.metadata, { name: 'w', namespace: 'ns', labels: { app: 'web', replicas: '1', owner: 'team-w' } });
});

test("the mutation's runtime cost budget covers the variables it reads", (t) => {
  // each variable costs about 344,000; thirty of them are more than the 10,000,000 a mutation may spend
  const costly = '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, true)))))';
  const variables = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`v${i}`, costly]));
  const all = Object.keys(variables).map((v) => `variables.${v}`);
  const expression = (names: string[]) => `Object{metadata: Object.metadata{labels: {"ok": string(${names.join(' && ')})}}}`;
  const r = runMutation('ApplyConfiguration', expression(all), widget(), schema, variables);
  t.is(r.error, 'validation failed due to running out of cost budget, no further validation rules will be run');
  const within = runMutation('ApplyConfiguration', expression(all.slice(0, 20)), widget(), schema, variables);
  t.deepEqual(within.object?.metadata, { name: 'w', namespace: 'ns', labels: { app: 'web', ok: 'true' } });
});
