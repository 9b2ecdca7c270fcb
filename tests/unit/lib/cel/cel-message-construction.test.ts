/**
 * Message construction (`Type{field: value}`) against the message types an environment declares: cel-go's checker
 * texts, optional fields, the creation cost, and Kubernetes' mutation types (`Object…`, `JSONPatch`,
 * `jsonpatch.escapeKey`).
 */
import test from 'ava';
import { kubernetesEnv } from '../../../../lib/cel/libraries.js';
import { celToJson } from '../../../../lib/cel/json-native.js';
import { JsonPatchVal } from '../../../../lib/cel/k8s-jsonpatch.js';
import { ObjectVal } from '../../../../lib/cel/k8s-object-val.js';
import { kubernetesPatchTypes } from '../../../../lib/cel/k8s-patch-types.js';
import type { StructType } from '../../../../lib/cel/struct-types.js';
import { T, type Type } from '../../../../lib/cel/types.js';
import type { Val } from '../../../../lib/cel/values.js';

const pointType: Type = { kind: 'object', name: 'Point', decl: { name: 'Point', field: (f) => (f === 'x' || f === 'y' ? T.int : undefined) } };
const point: StructType = {
  type: pointType,
  field: (f) => (f === 'x' || f === 'y' ? T.int : undefined),
  construct: (fields) => new ObjectVal('Point', fields),
};

const pointEnv = kubernetesEnv().extend().declareStructs((name) => (name === 'Point' ? point : undefined));
const patchEnv = kubernetesEnv().extend().use(kubernetesPatchTypes());

function run(env: typeof pointEnv, expr: string): { value?: Val; cost?: number; compileError?: string } {
  const c = env.compile(expr);
  if (!c.ast) return { compileError: c.errorText };
  const r = env.program(c.ast).eval({});
  return { value: r.value, cost: r.cost };
}

test('declared message types construct values whose fields can be read', (t) => {
  t.is(run(pointEnv, 'Point{x: 1, y: 2}.y').value, 2n);
  t.is(run(pointEnv, 'Point{x: 1} == Point{x: 1}').value, true);
  t.is(run(pointEnv, 'Point{x: 1} == Point{x: 2}').value, false);
  t.is(run(pointEnv, 'has(Point{?x: optional.none()}.x)').value, false);
  t.is(run(pointEnv, 'Point{?x: optional.of(4)}.x').value, 4n);
  t.is(run(pointEnv, 'Point{x: 1}').cost, 40, "cel-go's struct creation cost");
});

test("unknown types, unknown fields and wrongly typed fields are compile errors with cel-go's texts", (t) => {
  t.is(run(kubernetesEnv(), 'Point{x: 1}').compileError, "ERROR: <input>:1:6: undeclared reference to 'Point' (in container '')\n | Point{x: 1}\n | .....^");
  t.is(run(pointEnv, 'Point{z: 1}').compileError, "ERROR: <input>:1:8: undefined field 'z'\n | Point{z: 1}\n | .......^");
  t.is(
    run(pointEnv, 'Point{x: "1"}').compileError,
    "ERROR: <input>:1:8: expected type of field 'x' is 'int' but provided type is 'string'\n | Point{x: \"1\"}\n | .......^",
  );
  t.is(
    run(pointEnv, 'Point{?x: 1}').compileError,
    "ERROR: <input>:1:11: expected type 'optional_type(int)' but found 'int'\n | Point{?x: 1}\n | ..........^",
  );
});

test('Object types accept any field and nest by field path; they evaluate to JSON objects', (t) => {
  const v = run(patchEnv, 'Object{metadata: Object.metadata{labels: {"a": "b"}}, spec: Object.spec{replicas: 3, ports: [Object.spec.ports{port: 80}]}}').value;
  t.true(v instanceof ObjectVal);
  t.deepEqual(celToJson(v as ObjectVal), { metadata: { labels: { a: 'b' } }, spec: { replicas: 3, ports: [{ port: 80 }] } });
  t.is(run(patchEnv, 'Object{spec: Object.spec{replicas: 3}}.spec.replicas').value, 3n);
  t.is(run(patchEnv, 'type(Object.spec{}) == type(Object.spec{})').value, true);
});

test('JSONPatch values and jsonpatch.escapeKey', (t) => {
  const v = run(patchEnv, '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/a~b"), value: 1}]').value as JsonPatchVal[];
  t.deepEqual([v[0].op, v[0].path, v[0].from, v[0].value], ['add', '/metadata/labels/example.com~1a~0b', '', 1n]);
  t.is(run(patchEnv, 'JSONPatch{op: "remove", path: "/a"}.value').value?.constructor.name, 'CelError');
  t.is(run(patchEnv, 'jsonpatch.escapeKey("a/b~c")').value, 'a~1b~0c');
  t.is(run(patchEnv, 'jsonpatch.escapeKey("~/")').value, '~0~1');
  t.true(run(kubernetesEnv(), 'jsonpatch.escapeKey("a")').compileError?.startsWith("ERROR: <input>:1:1: undeclared reference to 'jsonpatch' (in container '')"), 'only mutations have it');
});
