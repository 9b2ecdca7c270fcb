import test from 'ava';
import { runMutation } from '../../../../helpers/map-mutation.js';
import type { KubeObject } from '../../../../../core/contracts/resource-type.js';

const widget = (): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', labels: { app: 'web' } },
  spec: { replicas: 1, tags: ['a', 'b'], template: { image: 'nginx' } },
});

const patch = (expression: string, object = widget()) => runMutation('JSONPatch', expression, object);

test('add, replace and remove, with jsonpatch.escapeKey for keys holding / and ~', (t) => {
  const r = patch(`[
    JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/a~b"), value: "x"},
    JSONPatch{op: "replace", path: "/spec/replicas", value: 3},
    JSONPatch{op: "remove", path: "/spec/tags/0"},
    JSONPatch{op: "add", path: "/spec/tags/-", value: "c"}
  ]`);
  t.deepEqual(r.object, {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', labels: { app: 'web', 'example.com/a~b': 'x' } },
    spec: { replicas: 3, tags: ['b', 'c'], template: { image: 'nginx' } },
  });
});

test('move and copy; Object values become JSON objects', (t) => {
  const r = patch(`[
    JSONPatch{op: "copy", from: "/spec/template", path: "/spec/backup"},
    JSONPatch{op: "move", from: "/spec/replicas", path: "/spec/count"},
    JSONPatch{op: "add", path: "/spec/selector", value: Object.spec.selector{matchLabels: {"app": "web"}}}
  ]`);
  t.deepEqual(r.object?.spec, { count: 1, tags: ['a', 'b'], template: { image: 'nginx' }, backup: { image: 'nginx' }, selector: { matchLabels: { app: 'web' } } });
});

test('a failing test operation leaves the object as it was, without error', (t) => {
  const object = widget();
  const r = patch('[JSONPatch{op: "test", path: "/spec/replicas", value: 2}, JSONPatch{op: "replace", path: "/spec/replicas", value: 5}]', object);
  t.is(r.error, undefined);
  t.deepEqual(r.object, widget());
  const passing = patch('[JSONPatch{op: "test", path: "/spec/replicas", value: 1}, JSONPatch{op: "replace", path: "/spec/replicas", value: 5}]');
  t.is((passing.object?.spec as { replicas: number }).replicas, 5);
});

test("operations that do not apply fail with json-patch's texts", (t) => {
  t.is(patch('[JSONPatch{op: "replace", path: "/spec/missing/x", value: 1}]').error, 'JSON Patch: replace operation does not apply: doc is missing path: /spec/missing/x: missing value');
  t.is(patch('[JSONPatch{op: "remove", path: "/spec/nothing"}]').error, "JSON Patch: error in remove for path: '/spec/nothing': Unable to remove nonexistent key: nothing: missing value");
  t.is(patch('[JSONPatch{op: "frobnicate", path: "/spec"}]').error, 'JSON Patch: Unexpected kind: frobnicate');
});

test('an Object value whose nested type name does not follow its field path is a type mismatch', (t) => {
  t.is(
    patch('[JSONPatch{op: "add", path: "/spec/selector", value: Object.spec.selector{matchLabels: Object.spec.wrong{}}}]').error,
    'type mismatch: unexpected type name "Object.spec.wrong", expected "Object.spec.selector.matchLabels", which matches field name path from root Object type',
  );
});

test('compile errors: results other than list(JSONPatch), unknown JSONPatch fields, wrongly typed fields', (t) => {
  t.is(patch('JSONPatch{op: "add", path: "/x", value: 1}').error, 'must evaluate to list(JSONPatch) but got JSONPatch');
  t.is(patch('[{"op": "add"}]').error, 'must evaluate to list(JSONPatch) but got list(map(string, string))');
  t.is(
    patch('[JSONPatch{op: "add", path: "/x", val: 1}]').error,
    "compilation failed: ERROR: <input>:1:38: undefined field 'val'\n | [JSONPatch{op: \"add\", path: \"/x\", val: 1}]\n | .....................................^",
  );
  t.is(
    patch('[JSONPatch{op: 1, path: "/x"}]').error,
    "compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n | [JSONPatch{op: 1, path: \"/x\"}]\n | .............^",
  );
});

test('runtime errors and the cost limit', (t) => {
  t.is(patch('[JSONPatch{op: "add", path: "/spec/x", value: object.spec.nope}]').error, "expression '[JSONPatch{op: \"add\", path: \"/spec/x\", value: object.spec.nope}]' resulted in error: no such key: nope");
  const expensive = '[JSONPatch{op: "add", path: "/spec/x", value: [1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, true))))))}]';
  t.is(patch(expensive).error, `expression '${expensive}' resulted in error: operation cancelled: actual cost limit exceeded`);
});
