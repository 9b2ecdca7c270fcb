import test from 'ava';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';
import { compileSchema } from '../../../schemas/structural-schema.js';
import type { SchemaCause } from '../../../schemas/validation-errors.js';

const set = (items: JSONSchemaProps = { type: 'string' }): JSONSchemaProps => ({ type: 'array', 'x-kubernetes-list-type': 'set', items });
const mapList = (keys: string[], properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  items: { type: 'object', properties },
});

const port = { port: { type: 'integer' }, protocol: { type: 'string' }, name: { type: 'string' } } satisfies Record<string, JSONSchemaProps>;

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        tags: set(),
        numbers: set({ type: 'number' }),
        flags: set({ type: 'boolean' }),
        anything: set({ 'x-kubernetes-preserve-unknown-fields': true } as JSONSchemaProps),
        ports: mapList(['port'], port),
        endpoints: mapList(['port', 'protocol'], port),
        byName: { type: 'object', additionalProperties: set() },
        groups: { type: 'array', items: { type: 'object', properties: { tags: set() } } },
        plain: { type: 'array', items: { type: 'string' } },
      },
    },
    status: { type: 'object', properties: { conditions: mapList(['type'], { type: { type: 'string' } }) } },
  },
};

const check = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): SchemaCause[] =>
  compileSchema(schema).validateListSetsAndMaps({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec, ...extra });

const lines = (causes: SchemaCause[]) => causes.map((c) => `${c.field}: ${c.message}`);

test('a set item seen twice is a Duplicate at its second occurrence, printed as field.Error prints it', (t) => {
  const causes = check({ tags: ['a', 'b', 'a'] });
  t.deepEqual(causes, [{ reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"', field: 'spec.tags[2]' }]);
});

test('each duplicated value is reported once, at its second occurrence, in order', (t) => {
  t.deepEqual(lines(check({ tags: ['b', 'a', 'a', 'b', 'a', 'a', 'c'] })), ['spec.tags[2]: Duplicate value: "a"', 'spec.tags[3]: Duplicate value: "b"']);
});

test('set scalars print bare (numbers as Go prints int64 and float64), null as "null"', (t) => {
  t.deepEqual(lines(check({ numbers: [1, 2.5, 1e21, 1, 2.5, 1e21] })), [
    'spec.numbers[3]: Duplicate value: 1',
    'spec.numbers[4]: Duplicate value: 2.5',
    'spec.numbers[5]: Duplicate value: 1e+21',
  ]);
  t.deepEqual(lines(check({ flags: [true, false, true] })), ['spec.flags[2]: Duplicate value: true']);
  t.deepEqual(lines(check({ anything: [null, 'null', null] })), ['spec.anything[2]: Duplicate value: "null"']);
});

test('set items of different types are distinct; objects and lists compare by content, whatever the key order', (t) => {
  t.deepEqual(check({ anything: ['1', 1, true, 'true', [1], '[1]', {}] }), []);
  t.deepEqual(lines(check({ anything: [{ a: 1, b: 'x' }, { b: 'x', a: 1 }, [1, 'a'], [1, 'a'], [1]] })), [
    'spec.anything[1]: Duplicate value: map[string]interface {}{"a":1, "b":"x"}',
    'spec.anything[3]: Duplicate value: []interface {}{1, "a"}',
  ]);
});

test('a map list with one key reports the key map of the later duplicate', (t) => {
  t.deepEqual(check({ ports: [{ port: 80, name: 'a' }, { port: 443 }, { port: 80, name: 'b' }] }), [
    { reason: 'FieldValueDuplicate', message: 'Duplicate value: map[string]interface {}{"port":80}', field: 'spec.ports[2]' },
  ]);
});

test('a map list with several keys reports every key, sorted by name as Go prints maps', (t) => {
  const endpoints = [
    { protocol: 'TCP', port: 80, name: 'a' },
    { port: 80, protocol: 'UDP' },
    { port: 80, protocol: 'TCP', name: 'b' },
  ];
  t.deepEqual(lines(check({ endpoints })), ['spec.endpoints[2]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}']);
});

test('a missing key field is left out of the key: it equals another missing one, not null', (t) => {
  t.deepEqual(lines(check({ ports: [{ name: 'a' }, { name: 'b' }] })), ['spec.ports[1]: Duplicate value: map[string]interface {}{}']);
  t.deepEqual(check({ ports: [{ name: 'a' }, { port: null }] }), []);
  t.deepEqual(lines(check({ ports: [{ port: null }, { port: null }] })), ['spec.ports[1]: Duplicate value: map[string]interface {}{"port":interface {}(nil)}']);
  t.deepEqual(lines(check({ endpoints: [{ port: 80 }, { port: 80, protocol: 'TCP' }, { port: 80, name: 'x' }] })), [
    'spec.endpoints[2]: Duplicate value: map[string]interface {}{"port":80}',
  ]);
  // a null item has no key fields
  t.deepEqual(lines(check({ ports: [null, { name: 'a' }] })), ['spec.ports[1]: Duplicate value: map[string]interface {}{}']);
});

test('a map list item that is not an object is one Invalid cause, at the first such item, instead of duplicates', (t) => {
  t.deepEqual(check({ ports: [{ port: 80 }, { port: 80 }, 'x', 3] }), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "x": must be an object for an array of list-type map', field: 'spec.ports[2]' },
  ]);
  t.deepEqual(lines(check({ ports: [[1]] })), ['spec.ports[0]: Invalid value: []interface {}{1}: must be an object for an array of list-type map']);
});

test('lists are checked wherever they are: under items of any list, under additionalProperties, in status', (t) => {
  t.deepEqual(
    lines(
      check(
        { groups: [{ tags: ['x', 'x'] }, { tags: ['y'] }, { tags: ['z', 'z'] }], byName: { b: ['1', '1'], a: ['2', '2'] } },
        { status: { conditions: [{ type: 'Ready' }, { type: 'Ready' }] } },
      ),
    ),
    [
      'spec.byName[a][1]: Duplicate value: "2"',
      'spec.byName[b][1]: Duplicate value: "1"',
      'spec.groups[0].tags[1]: Duplicate value: "x"',
      'spec.groups[2].tags[1]: Duplicate value: "z"',
      'status.conditions[1]: Duplicate value: map[string]interface {}{"type":"Ready"}',
    ],
  );
});

test('atomic lists, unknown fields and values of the wrong shape are not checked', (t) => {
  t.deepEqual(check({ plain: ['a', 'a'], unknown: ['a', 'a'], tags: 'a', ports: { port: 80 } }), []);
  t.deepEqual(compileSchema({ type: 'object', properties: { spec: { type: 'object' } } }).validateListSetsAndMaps({ spec: { tags: ['a', 'a'] } }), []);
});

test('a list of 100,000 items is checked by value, not pairwise', (t) => {
  const tags = Array.from({ length: 100_000 }, (_, i) => `t${i}`);
  tags.push('t0');
  const ports = Array.from({ length: 100_000 }, (_, i) => ({ port: i, name: 'p' }));
  ports.push({ port: 99_999, name: 'q' });
  t.deepEqual(lines(check({ tags, ports })), ['spec.ports[100000]: Duplicate value: map[string]interface {}{"port":99999}', 'spec.tags[100000]: Duplicate value: "t0"']);
});
