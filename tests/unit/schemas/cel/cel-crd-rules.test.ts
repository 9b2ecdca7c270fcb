/**
 * CRD validation rules (x-kubernetes-validations): the causes of CRD admission (compileCrdRules().errors) and of
 * custom-resource writes (CrdRuleProgram.validate), with kube-apiserver v1.32's paths and texts.
 */
import test from 'ava';
import { celRulesSkippedCause, compileCrdRules, type CrdRuleProgram, type StatusCause } from '../../../../schemas/cel/crd-rules.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';

type Rule = NonNullable<JSONSchemaProps['x-kubernetes-validations']>[number];

const S: JSONSchemaProps = { type: 'string' };
const I: JSONSchemaProps = { type: 'integer' };
const PREFIX = 'spec.validation.openAPIV3Schema';

/** A CRD schema whose `spec` has the given properties and rules. */
function crd(spec: Record<string, JSONSchemaProps>, rules?: Rule[], specExtra: JSONSchemaProps = {}): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      metadata: { type: 'object' },
      spec: { type: 'object', properties: spec, ...(rules ? { 'x-kubernetes-validations': rules } : {}), ...specExtra },
    },
  };
}

function program(t: import('ava').ExecutionContext, schema: JSONSchemaProps): CrdRuleProgram {
  const r = compileCrdRules(schema, PREFIX);
  t.deepEqual(r.errors, []);
  t.truthy(r.program);
  return r.program!;
}

const cr = (spec: unknown, metadata: Record<string, unknown> = { name: 'w' }): Record<string, unknown> => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata, spec });

const rulePath = (i: number, f = 'rule'): string => `${PREFIX}.properties[spec].x-kubernetes-validations[${i}].${f}`;

// ---- CRD admission ----

test('the rules’ own fields are checked first, with kube’s texts', (t) => {
  const r = compileCrdRules(
    crd({ a: I }, [
      { rule: '' },
      { rule: 'true', message: '  ' },
      { rule: 'true', message: 'a\nb' },
      { rule: 'true\n&& true' },
      { rule: 'true', messageExpression: '  ' },
      { rule: 'true', reason: 'Bogus' as Rule['reason'] },
      { rule: 'true', fieldPath: '.nope' },
    ]),
    PREFIX,
  );
  t.deepEqual(r.errors, [
    { reason: 'FieldValueRequired', message: 'Required value: rule is not specified', field: rulePath(0) },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "  ": message must be non-empty if specified', field: rulePath(1, 'message') },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "a\\nb": message must not contain line breaks', field: rulePath(2, 'message') },
    { reason: 'FieldValueRequired', message: 'Required value: message must be specified if rule contains line breaks', field: rulePath(3, 'message') },
    { reason: 'FieldValueRequired', message: 'Required value: messageExpression must be non-empty if specified', field: rulePath(4, 'messageExpression') },
    {
      reason: 'FieldValueNotSupported',
      message: 'Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      field: rulePath(5, 'reason'),
    },
    { reason: 'FieldValueInvalid', message: 'Invalid value: ".nope": fieldPath must be a valid path', field: rulePath(6, 'fieldPath') },
  ]);
  t.is(r.program, undefined);
});

test('compile errors name the rule and the position (v1 path by default)', (t) => {
  const r = compileCrdRules(crd({ a: I }, [{ rule: 'self.b == 1' }, { rule: 'self.a == true', message: 'm' }, { rule: 'self.a +' }]));
  const v1 = (i: number): string => `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[${i}].rule`;
  t.deepEqual(r.errors, [
    {
      reason: 'FieldValueInvalid',
      message:
        'Invalid value: apiextensions.ValidationRule{Rule:"self.b == 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
        "compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b == 1\n | ....^",
      field: v1(0),
    },
    {
      reason: 'FieldValueInvalid',
      message:
        'Invalid value: apiextensions.ValidationRule{Rule:"self.a == true", Message:"m", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
        "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, bool)'\n | self.a == true\n | .......^",
      field: v1(1),
    },
    {
      reason: 'FieldValueInvalid',
      message:
        'Invalid value: apiextensions.ValidationRule{Rule:"self.a +", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
        "compilation failed: ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a +\n | ........^",
      field: v1(2),
    },
  ]);
});

test('rules must be bools, messageExpressions strings; oldSelf rules need correlatable values', (t) => {
  const items: JSONSchemaProps = { type: 'object', properties: { x: { type: 'string', maxLength: 10 } }, 'x-kubernetes-validations': [{ rule: 'self.x == oldSelf.x' }] };
  const r = compileCrdRules(
    crd({ a: I, s: { type: 'string', maxLength: 10 }, l: { type: 'array', maxItems: 5, items } }, [
      { rule: 'self.a' },
      { rule: 'self.a > 0', optionalOldSelf: true },
      { rule: 'self.a > 0', messageExpression: 'self.a' },
      { rule: 'self.a > 0', messageExpression: "'a' +" },
      { rule: "self.s.find(')') == ''" },
      { rule: "self.s.matches(')')" },
    ]),
    PREFIX,
  );
  const goRule = (rule: string, messageExpression = '', optionalOldSelf = '(*bool)(nil)'): string =>
    `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:${JSON.stringify(messageExpression)}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:${optionalOldSelf}}`;
  t.deepEqual(r.errors, [
    {
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "self.x == oldSelf.x": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[l]',
      field: `${PREFIX}.properties[spec].properties[l].items.x-kubernetes-validations[0].rule`,
    },
    { reason: 'FieldValueInvalid', message: `Invalid value: ${goRule('self.a')}: cel expression must evaluate to a bool`, field: rulePath(0) },
    { reason: 'FieldValueInvalid', message: 'Invalid value: true: may not be set if oldSelf is not used in rule', field: rulePath(1, 'optionalOldSelf') },
    { reason: 'FieldValueInvalid', message: `Invalid value: ${goRule('self.a > 0', 'self.a')}: messageExpression must evaluate to a string`, field: rulePath(2, 'messageExpression') },
    {
      reason: 'FieldValueInvalid',
      message:
        `Invalid value: ${goRule('self.a > 0', "'a' +")}: messageExpression compilation failed: ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting ` +
        "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 'a' +\n | .....^",
      field: rulePath(3, 'messageExpression'),
    },
    { reason: 'FieldValueInvalid', message: `Invalid value: ${goRule("self.s.find(')') == ''")}: program instantiation failed: error parsing regexp: unexpected ): \`)\``, field: rulePath(4) },
    {
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${goRule("self.s.matches(')')")}: compilation failed: ERROR: <input>:1:16: invalid matches argument\n | self.s.matches(')')\n | ...............^`,
      field: rulePath(5),
    },
  ]);
});

test('estimated cost limits per rule and per CRD', (t) => {
  const quadratic = (maxItems?: number): JSONSchemaProps => ({ type: 'array', items: I, ...(maxItems ? { maxItems } : {}) });
  const rule = { rule: 'self.l.all(x, self.l.all(y, x == y))' };
  t.deepEqual(compileCrdRules(crd({ l: quadratic(1000) }, [rule]), PREFIX).errors, []);
  const unbounded = compileCrdRules(crd({ l: quadratic() }, [rule]), PREFIX).errors;
  t.deepEqual(unbounded[0], {
    reason: 'FieldValueForbidden',
    message:
      'Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    field: rulePath(0),
  });
  const twice = compileCrdRules(crd({ l: quadratic(2000) }, [rule]), PREFIX).errors;
  t.is(twice.length, 1);
  t.regex(twice[0].message, /^Forbidden: estimated rule cost exceeds budget by factor of 2\.0x \(try simplifying the rule/);

  // each rule fits, all of them together do not (100,000,000): the four most expensive are named
  const eleven = compileCrdRules(crd({ l: quadratic(1400) }, Array.from({ length: 11 }, () => rule)), PREFIX).errors;
  t.is(eleven.length, 5);
  for (const e of eleven.slice(0, 4)) {
    t.is(e.reason, 'FieldValueForbidden');
    t.is(e.message, 'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema');
    t.regex(e.field!, /^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[\d+\]\.rule$/);
  }
  t.is(eleven[4].field, PREFIX);
  t.regex(eleven[4].message, /^Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\.\d+x \(try/);
});

test('rules under allOf are compiled against the same value', (t) => {
  const r = compileCrdRules(crd({ l: { type: 'array', items: S, allOf: [{ items: { 'x-kubernetes-validations': [{ rule: 'self == 1' }] } }] } }), PREFIX);
  t.is(r.errors.length, 1);
  t.is(r.errors[0].field, `${PREFIX}.properties[spec].properties[l].allOf[0].items.x-kubernetes-validations[0].rule`);
  t.regex(r.errors[0].message, /found no matching overload for '_==_' applied to '\(string, int\)'/);
});

test('the cause for rules skipped behind blocking schema errors', (t) => {
  t.is(celRulesSkippedCause([{ reason: 'FieldValueInvalid' }]), undefined);
  t.deepEqual(celRulesSkippedCause([{ reason: 'FieldValueRequired' }]), {
    reason: 'FieldValueInvalid',
    message: 'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    field: '<nil>',
  });
});

// ---- writes ----

test('failing rules become kube’s causes: message, default message, paths and types', (t) => {
  const p = program(t, {
    type: 'object',
    'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('w-')" }],
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }],
        properties: {
          min: I,
          max: I,
          name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]+$')" }] },
          tags: { type: 'array', items: S, 'x-kubernetes-validations': [{ rule: 'self.size() < 2', message: ' too many tags ' }] },
        },
      },
    },
  });
  t.deepEqual(p.validate(cr({ min: 1, max: 2, name: 'abc', tags: [] }, { name: 'w-1' }), undefined), []);
  t.deepEqual(p.validate(cr({ min: 3, max: 2, name: 'ABC', tags: ['a', 'b'] }), undefined), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": failed rule: self.metadata.name.startsWith(\'w-\')', field: '<nil>' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": min must not exceed max', field: 'spec' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "string": failed rule: self.matches(\'^[a-z]+$\')', field: 'spec.name' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "array": too many tags', field: 'spec.tags' },
  ]);
});

test('messageExpression replaces the message; unusable results fall back to it', (t) => {
  const p = program(
    t,
    crd({ replicas: I, name: { type: 'string', maxLength: 20 } }, [
      { rule: 'self.replicas < 10', message: 'static', messageExpression: "'replicas %d exceed the limit of %d'.format([self.replicas, 9])" },
      { rule: 'self.replicas < 10', message: 'fallback 1', messageExpression: "['a'][self.replicas]" },
      { rule: 'self.replicas < 10', message: 'fallback 2', messageExpression: "'   '" },
      { rule: 'self.replicas < 10', message: 'fallback 3', messageExpression: "'two\\nlines'" },
      { rule: 'self.replicas < 10', messageExpression: "' name ' + self.name + ' '" },
      { rule: 'self.replicas < 10', messageExpression: "''" },
    ]),
  );
  const msgs = p.validate(cr({ replicas: 12, name: 'x' }), undefined).map((c) => c.message);
  t.deepEqual(msgs, [
    'Invalid value: "object": replicas 12 exceed the limit of 9',
    'Invalid value: "object": fallback 1',
    'Invalid value: "object": fallback 2',
    'Invalid value: "object": fallback 3',
    'Invalid value: "object": name x',
    'Invalid value: "object": failed rule: self.replicas < 10',
  ]);
});

test('reason and fieldPath', (t) => {
  const p = program(
    t,
    crd({ a: S, b: S, c: S, m: { type: 'object', additionalProperties: S } }, [
      { rule: "self.a != 'x'", reason: 'FieldValueForbidden', fieldPath: '.a' },
      { rule: "self.b != 'x'", reason: 'FieldValueRequired', fieldPath: '.b', message: 'b is required' },
      { rule: "self.c != 'x'", reason: 'FieldValueDuplicate', fieldPath: '.c' },
      { rule: "self.a != 'x'", reason: 'FieldValueInvalid', fieldPath: ".m['k.1']" },
    ]),
  );
  t.deepEqual(p.validate(cr({ a: 'x', b: 'x', c: 'x', m: {} }), undefined), [
    { reason: 'FieldValueForbidden', message: "Forbidden: failed rule: self.a != 'x'", field: 'spec.a' },
    { reason: 'FieldValueRequired', message: 'Required value: b is required', field: 'spec.b' },
    { reason: 'FieldValueDuplicate', message: 'Duplicate value: "object"', field: 'spec.c' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": failed rule: self.a != \'x\'', field: 'spec.m[k.1]' },
  ]);
});

test('transition rules run on update only, unless optionalOldSelf', (t) => {
  const p = program(
    t,
    crd({ replicas: I, mode: S }, [
      { rule: 'self.replicas >= oldSelf.replicas', message: 'no scaling down' },
      { rule: "self.mode == 'new' || (oldSelf.hasValue() && oldSelf.value().mode == self.mode)", optionalOldSelf: true, message: 'mode must stay or be new' },
    ]),
  );
  // create: the plain transition rule is skipped, the optional one sees optional.none()
  t.deepEqual(
    p.validate(cr({ replicas: 1, mode: 'old' }), undefined).map((c) => c.message),
    ['Invalid value: "object": mode must stay or be new'],
  );
  t.deepEqual(p.validate(cr({ replicas: 1, mode: 'new' }), undefined), []);
  // update
  t.deepEqual(p.validate(cr({ replicas: 3, mode: 'old' }), cr({ replicas: 2, mode: 'old' })), []);
  t.deepEqual(
    p.validate(cr({ replicas: 1, mode: 'other' }), cr({ replicas: 2, mode: 'old' })).map((c) => c.message),
    ['Invalid value: "object": no scaling down', 'Invalid value: "object": mode must stay or be new'],
  );
});

test('transition rules on map-list items correlate old items by key', (t) => {
  const item: JSONSchemaProps = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 20 }, value: { type: 'string', maxLength: 20 } },
    'x-kubernetes-validations': [{ rule: 'self.value == oldSelf.value', message: 'value is immutable' }],
  };
  const p = program(t, crd({ l: { type: 'array', maxItems: 10, items: item, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } }));
  const old = cr({ l: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] });
  t.deepEqual(p.validate(cr({ l: [{ name: 'b', value: '2' }, { name: 'a', value: '1' }, { name: 'c', value: '3' }] }), old), []);
  t.deepEqual(p.validate(cr({ l: [{ name: 'b', value: '9' }] }), old), [{ reason: 'FieldValueInvalid', message: 'Invalid value: "object": value is immutable', field: 'spec.l[0]' }]);
});

test('ratcheting: failures of values an update leaves unchanged become warnings', (t) => {
  const p = program(t, crd({ a: { type: 'string', 'x-kubernetes-validations': [{ rule: "self != 'bad'" }] }, b: S }));
  const warnings: string[] = [];
  t.deepEqual(p.validate(cr({ a: 'bad', b: 'changed' }), cr({ a: 'bad', b: 'before' }), { warnings }), []);
  t.deepEqual(warnings, [`spec.a: Invalid value: "string": failed rule: self != 'bad'`]);
  t.deepEqual(p.validate(cr({ a: 'bad' }), cr({ a: 'good' })), [{ reason: 'FieldValueInvalid', message: `Invalid value: "string": failed rule: self != 'bad'`, field: 'spec.a' }]);
  t.is(p.validate(cr({ a: 'bad' }), undefined).length, 1);
});

test('property names: escaping, reserved words, metadata at the root', (t) => {
  const p = program(t, {
    type: 'object',
    'x-kubernetes-validations': [{ rule: "self.metadata.name == 'w' && self.kind == 'Widget'" }],
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: { 'max-size': I, 'a.b': I, namespace: S, 'x/y': I, 'under__score': I },
        'x-kubernetes-validations': [
          { rule: 'self.max__dash__size == 1 && self.a__dot__b == 2 && self.x__slash__y == 3 && self.under__underscores__score == 4' },
          { rule: "self.namespace == 'ns' && self.__namespace__ == 'ns'" },
        ],
      },
    },
  });
  t.deepEqual(p.validate(cr({ 'max-size': 1, 'a.b': 2, namespace: 'ns', 'x/y': 3, under__score: 4 }), undefined), []);
  const err = compileCrdRules(crd({ a: I }, [{ rule: 'has(self.metadata.namespace)' }]), PREFIX).errors;
  t.is(err.length, 1);
  t.regex(err[0].message, /undefined field 'metadata'/);
  const rootErr = compileCrdRules({ type: 'object', properties: { metadata: { type: 'object' } }, 'x-kubernetes-validations': [{ rule: 'has(self.metadata.namespace)' }] }, PREFIX).errors;
  t.regex(rootErr[0].message, /undefined field 'namespace'/);
});

test('OpenAPI types map to CEL: int64, int-or-string, formats, list types', (t) => {
  const p = program(
    t,
    crd(
      {
        big: I,
        ios: { 'x-kubernetes-int-or-string': true },
        d: { type: 'string', format: 'duration' },
        ts: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        b: { type: 'string', format: 'byte' },
        set: { type: 'array', items: S, 'x-kubernetes-list-type': 'set' },
        set2: { type: 'array', items: S, 'x-kubernetes-list-type': 'set' },
        // map lists compare by key, whatever the order; a list of them keeps one item type
        mls: {
          type: 'array',
          items: { type: 'array', items: { type: 'object', properties: { k: S, v: S } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
        },
        atomic: { type: 'array', items: I },
      },
      [
        { rule: 'self.big + 1 == 9007199254740992 && type(self.big) == int' },
        { rule: "self.ios == '25%' || self.ios == 1" },
        { rule: "self.d == duration('1h30m') && self.ts == timestamp('2024-01-01T01:00:00+01:00') && self.day.getFullYear() == 2024" },
        { rule: "self.b == b'AB'" },
        { rule: "self.set == ['c', 'b', 'a'] && self.set == self.set2 && self.set + ['c', 'd'] == ['a', 'b', 'c', 'd']" },
        { rule: 'self.mls[0] == self.mls[1] && self.mls[0] != self.mls[2] && self.mls[2] + self.mls[0] == self.mls[0] && (self.mls[0] + self.mls[2]).size() == 2' },
        { rule: 'self.atomic + [1] == [3, 1, 1]' },
      ],
    ),
  );
  t.deepEqual(
    p.validate(
      cr({
        big: 9007199254740991,
        ios: '25%',
        d: '1h30m',
        ts: '2024-01-01T00:00:00Z',
        day: '2024-05-06',
        b: 'QUI=',
        set: ['a', 'b', 'c'],
        set2: ['c', 'a', 'b'],
        mls: [
          [{ k: 'x', v: '1' }, { k: 'y', v: '2' }],
          [{ k: 'y', v: '2' }, { k: 'x', v: '1' }],
          [{ k: 'x', v: '3' }],
        ],
        atomic: [3, 1],
      }),
      undefined,
    ),
    [],
  );
});

test('runtime errors are reported per rule and the others still run', (t) => {
  const p = program(
    t,
    crd({ m: { type: 'object', additionalProperties: S }, ios: { 'x-kubernetes-int-or-string': true }, n: I }, [
      { rule: "self.m['missing'] == 'x'" },
      { rule: 'self.ios + 1 > 0' },
      { rule: 'self.n / 0 == 1' },
      { rule: 'self.n > 5', message: 'n too small' },
    ]),
  );
  t.deepEqual(p.validate(cr({ m: {}, ios: 'str', n: 1 }), undefined), [
    { reason: 'FieldValueInvalid', message: `Invalid value: "object": no such key: missing evaluating rule: self.m['missing'] == 'x'`, field: 'spec' },
    {
      reason: 'FieldValueInvalid',
      message: `Invalid value: "object": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.ios + 1 > 0`,
      field: 'spec',
    },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": division by zero evaluating rule: self.n / 0 == 1', field: 'spec' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": n too small', field: 'spec' },
  ]);
});

test('allOf rules apply to the same value', (t) => {
  const p = program(t, {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { key: S, key2: S, list: { type: 'array', items: S, allOf: [{ items: { 'x-kubernetes-validations': [{ rule: 'self.size() == 5', message: 'len must be 5' }] } }] } },
        allOf: [
          { 'x-kubernetes-validations': [{ rule: "self.key == 'value'", message: 'key must be value' }] },
          { 'x-kubernetes-validations': [{ rule: 'self.key != self.key2', message: 'keys must differ' }] },
        ],
        anyOf: [{ 'x-kubernetes-validations': [{ rule: 'false', message: 'anyOf rules are ignored' }] }],
      },
    },
  });
  t.deepEqual(p.validate(cr({ key: 'x', key2: 'x', list: ['value', 'value2'] }), undefined), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": key must be value', field: 'spec' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": keys must differ', field: 'spec' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "string": len must be 5', field: 'spec.list[1]' },
  ]);
});

test('programs are compiled once and reused across writes', (t) => {
  const r = compileCrdRules(crd({ n: I }, [{ rule: 'self.n > 0' }]), PREFIX);
  const p = r.program!;
  const causes: StatusCause[][] = [];
  for (let i = -2; i <= 2; i++) causes.push(p.validate(cr({ n: i }), undefined));
  t.deepEqual(
    causes.map((c) => c.length),
    [1, 1, 1, 0, 0],
  );
  t.is(compileCrdRules(crd({ n: I })).program, undefined);
});
