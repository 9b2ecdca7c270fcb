/**
 * CEL cost accounting as kube-apiserver v1.32 does it: the runtime cost of expressions over custom-resource data
 * (figures of Kubernetes' CEL cost-stability tests), the per-call limit (1,000,000) and the per-object budget
 * (10,000,000) of CRD validation rules with their error texts.
 */
import test from 'ava';
import { compileCrdRules, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from '../../../../schemas/cel/crd-rules.js';
import { kubernetesEnv } from '../../../../lib/cel/libraries.js';
import { celTypeOf, schemaDeclType } from '../../../../schemas/cel/schema-decl.js';
import { toCel } from '../../../../schemas/cel/schema-values.js';
import type { Value } from '../../../../lib/cel/values.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';

const S: JSONSchemaProps = { type: 'string' };
const I: JSONSchemaProps = { type: 'integer' };
const obj = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties });
const vals = (...types: JSONSchemaProps[]): JSONSchemaProps => obj(Object.fromEntries(types.map((t, i) => [`val${i + 1}`, t])));
const data = (...values: unknown[]): Record<string, unknown> => Object.fromEntries(values.map((v, i) => [`val${i + 1}`, v]));
const list = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'array', items, ...extra });
const map = (v: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', additionalProperties: v });
const listMap = (keys: string[], items: JSONSchemaProps): JSONSchemaProps => list(items, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });

interface Case {
  name: string;
  schema: JSONSchemaProps;
  self: unknown;
  /** expression → runtime cost (each expression evaluates to true) */
  costs: Record<string, number>;
}

const cases: Case[] = [
  {
    name: 'integers',
    schema: vals(I, I, I),
    self: data(9, 9, 2147483647),
    costs: { 'self.val1 == self.val2': 5, 'type(self.val1) == int': 4, 'self.val3 + 1 == 2147483647 + 1': 5 },
  },
  {
    name: 'numbers',
    schema: vals({ type: 'number' }, I),
    self: data(10.0, 5),
    costs: { 'double(self.val2) < self.val1': 6, 'self.val2 < int(self.val1)': 6, 'double(5) < 10.0': 1, 'double(self.val2) < 10.0': 4 },
  },
  {
    name: 'strings',
    schema: vals(S),
    self: data('Rook takes 👑'),
    costs: {
      "self.val1.startsWith('Rook')": 4,
      "!self.val1.startsWith('knight')": 5,
      "self.val1.matches('^[^0-9]*$')": 8,
      "!self.val1.matches('^[0-9]*$')": 7,
      'size(self.val1) == 12': 4,
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 7,
      "self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
      "self.val1.substring(4, 10).trim() == 'takes'": 6,
      "self.val1.upperAscii() == 'ROOK TAKES 👑'": 6,
    },
  },
  {
    name: 'lists and sets',
    schema: vals(list(I), list(I), list(S, { 'x-kubernetes-list-type': 'set' }), list(S, { 'x-kubernetes-list-type': 'set' })),
    self: data([1, 2, 3], [1, 2, 3], ['a', 'b', 'c'], ['a', 'c', 'b']),
    costs: {
      '1 in self.val1': 5,
      'self.val2[0] in self.val1': 8,
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]': 6,
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]': 4,
      "self.val3 == ['c', 'b', 'a']": 3,
      'self.val3 == self.val4': 5,
      "self.val3 + ['c', 'd'] == ['a', 'b', 'c', 'd']": 4,
    },
  },
  {
    name: 'maps',
    schema: obj({ val: map(I) }),
    self: { val: { b: 1, d: 2 } },
    costs: {
      "'b' in self.val": 3,
      '!has(self.val.a)': 3,
      'self.val.all(k, self.val[k] > 0)': 17,
      'self.val.exists_one(k, self.val[k] == 2)': 14,
      'size(self.val.filter(k, self.val[k] > 1)) == 1': 26,
    },
  },
  {
    name: 'comprehensions over a map list, with absent fields',
    schema: obj({ listMap: listMap(['k'], obj({ k: S, v: S, v2: S })) }),
    self: { listMap: [{ k: 'a1', v: 'b1' }, { k: 'a2', v: 'b2' }, { k: 'a3', v: 'b3', v2: 'z' }] },
    costs: {
      "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')": 12,
      "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1": 24,
      "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1": 25,
      "self.listMap.exists(m, m.v2 == 'z')": 24,
      "!self.listMap.all(m, m.v2 != 'z')": 22,
    },
  },
  {
    name: 'list macros',
    schema: obj({ array: list(I) }),
    self: { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    costs: {
      '2 in self.array': 10,
      'self.array.all(e, e > 0)': 43,
      'self.array.exists(e, e > 2)': 36,
      'size(self.array.filter(e, e%2 == 0)) == 3': 68,
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)': 194,
    },
  },
  {
    name: 'int-or-string and unknown fields',
    schema: obj({ something: { 'x-kubernetes-int-or-string': true }, withUnknown: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }),
    self: { something: '25%', withUnknown: { a: 1 } },
    costs: {
      "type(self.something) == int ? self.something == 1 : self.something == '25%'": 7,
      "self.something == 1 || self.something == '25%'": 6,
      "self.something == '25%' || self.something == 1": 3,
      'has(self.withUnknown)': 1,
    },
  },
  {
    name: 'optionals',
    schema: obj({ obj: obj({ field: S, absentField: S }), m: map(S), l: list(S) }),
    self: { obj: { field: 'a' }, m: { k: 'v' }, l: ['a'] },
    costs: {
      "self.obj.?field == optional.of('a')": 5,
      'self.obj.?absentField == optional.none()': 4,
      "self.obj.?field.orValue('v') == 'a'": 4,
      "self.m[?'k'] == optional.of('v')": 5,
      "self.l[?0] == optional.of('a')": 5,
    },
  },
  {
    name: 'library functions',
    schema: vals(S),
    self: data('x'),
    costs: {
      '[1,2,3,4].isSorted()': 4,
      "url('https:://kubernetes.io/').getHostname() != 'test'": 4,
      "size('abc 123 def 123'.split(' ')) > 0": 5,
      "size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0": 7,
    },
  },
];

for (const c of cases) {
  test(`runtime cost: ${c.name}`, (t) => {
    const decl = schemaDeclType(c.schema, false)!;
    const env = kubernetesEnv().extend().declare('self', celTypeOf(decl, 'costTestSelf'));
    const self = toCel(c.self, decl, 'costTestSelf') as Value;
    for (const [expr, cost] of Object.entries(c.costs)) {
      const compiled = env.compile(expr);
      t.truthy(compiled.ast, `${expr}: ${compiled.errorText}`);
      const r = env.program(compiled.ast!).eval({ self });
      t.is(r.value, true, expr);
      t.is(r.cost, cost, expr);
    }
  });
}

test('the cost limit aborts an evaluation as soon as it is exceeded', (t) => {
  const env = kubernetesEnv();
  const c = env.compile('[1, 2, 3].map(x, [1, 2, 3].map(y, x * y)).size() == 3');
  const full = env.program(c.ast!).eval({});
  t.is(full.value, true);
  const limited = env.program(c.ast!).eval({}, { costLimit: full.cost - 1 });
  t.true(limited.costLimitExceeded);
  t.is(limited.value, undefined);
  t.is(env.program(c.ast!).eval({}, { costLimit: full.cost }).value, true);
});

/** A rule whose runtime cost is about 6n² for a list of n integers. */
const QUADRATIC = 'self.l.all(x, self.l.all(y, x == y))';

test('a rule exceeding the per-call limit stops validation with kube’s message', (t) => {
  t.is(PER_CALL_LIMIT, 1_000_000);
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { l: list(I, { maxItems: 1000 }), n: I },
        'x-kubernetes-validations': [{ rule: QUADRATIC }, { rule: 'self.n > 0', message: 'not reached' }],
      },
    },
  };
  const r = compileCrdRules(schema);
  t.deepEqual(r.errors, []);
  t.deepEqual(r.program!.validate({ spec: { l: Array(1000).fill(1), n: 0 } }, undefined), [
    {
      reason: 'FieldValueInvalid',
      message: `Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${QUADRATIC}`,
      field: 'spec',
    },
  ]);
  // a smaller list stays within the limit
  t.deepEqual(r.program!.validate({ spec: { l: Array(100).fill(1), n: 1 } }, undefined), []);
});

test('rules exhausting the per-object budget stop validation with kube’s message', (t) => {
  t.is(RUNTIME_CEL_COST_BUDGET, 10_000_000);
  // 11 rules of ~936,000 each: the eleventh runs out of the 10,000,000 budget
  const rules = Array.from({ length: 11 }, () => ({ rule: QUADRATIC }));
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { l: list(I, { maxItems: 395 }) }, 'x-kubernetes-validations': rules },
      status: { type: 'object', properties: { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] } } },
    },
  };
  const r = compileCrdRules(schema);
  t.deepEqual(r.errors, []);
  const causes = r.program!.validate({ spec: { l: Array(395).fill(1) }, status: { n: 0 } }, undefined);
  t.deepEqual(causes, [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run', field: 'spec' },
  ]);
  // ten of them fit, and the rules after them still run
  const ten = compileCrdRules({ ...schema, properties: { ...schema.properties, spec: { ...schema.properties!.spec, 'x-kubernetes-validations': rules.slice(1) } } });
  t.deepEqual(
    ten.program!.validate({ spec: { l: Array(395).fill(1) }, status: { n: 0 } }, undefined).map((c) => c.field),
    ['status.n'],
  );
});
