/**
 * Regular expressions in CEL run with RE2 semantics (linear time): patterns that backtrack catastrophically in
 * JavaScript's RegExp must not stall the server.
 */
import test from 'ava';
import { compileCrdRules } from '../../../../schemas/cel/crd-rules.js';
import { kubernetesEnv } from '../../../../lib/cel/libraries.js';
import { T } from '../../../../lib/cel/types.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';

const LONG = 'a'.repeat(100_000) + '!';

function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

test("self.matches('^(a+)+$') on a 100k-character string returns within a second", (t) => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.matches('^(a+)+$')" }] } } } },
  };
  const r = compileCrdRules(schema);
  t.deepEqual(r.errors, []);
  const { value, ms } = timed(() => r.program!.validate({ spec: { s: LONG } }, undefined));
  t.deepEqual(value, [{ reason: 'FieldValueInvalid', message: `Invalid value: "string": failed rule: self.matches('^(a+)+$')`, field: 'spec.s' }]);
  t.true(ms < 1000, `took ${ms}ms`);
});

test('find, findAll and matches with backtracking-prone patterns stay linear', (t) => {
  const env = kubernetesEnv().extend().declare('s', T.string);
  for (const [expr, want] of [
    ["s.matches('(a|aa)*$')", true],
    ["s.matches('^(a*)*b$')", false],
    ["s.find('(a+)+b') == ''", true],
    ["s.findAll('(a|a)+!').size() == 1", true],
  ] as const) {
    const c = env.compile(expr);
    t.truthy(c.ast, c.errorText);
    const { value, ms } = timed(() => env.program(c.ast!).eval({ s: LONG }).value);
    t.is(value, want, expr);
    t.true(ms < 1000, `${expr} took ${ms}ms`);
  }
});
