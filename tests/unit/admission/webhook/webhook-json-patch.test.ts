// A mutating webhook's JSON patch applied as kube applies it (evanphx/json-patch v4 semantics and error texts).
import test from 'ava';
import { applyWebhookPatch, decodeJsonPatch, JsonPatchError } from '../../../../admission/webhook/webhook-json-patch.js';
import { goJsonSyntaxError } from '../../../../lib/go/json-errors.js';

const doc = () => ({ kind: 'Widget', metadata: { name: 'w', labels: { a: '1' } }, spec: { list: ['x', 'y'], n: 1 } });
const apply = (ops: unknown[]) => applyWebhookPatch(doc(), ops as never);
const failure = (ops: unknown[]) => t_throws(() => apply(ops));

function t_throws(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof JsonPatchError) return err.message;
    throw err;
  }
  return 'no error';
}

test('operations apply to a copy: add, remove, replace, move, copy, test', (t) => {
  const original = doc();
  const out = applyWebhookPatch(original, [
    { op: 'add', path: '/metadata/labels/b', value: '2' },
    { op: 'add', path: '/spec/list/1', value: 'between' },
    { op: 'add', path: '/spec/list/-', value: 'end' },
    { op: 'remove', path: '/metadata/labels/a' },
    { op: 'replace', path: '/spec/n', value: 2 },
    { op: 'copy', from: '/spec/n', path: '/spec/m' },
    { op: 'move', from: '/spec/m', path: '/spec/k' },
    { op: 'test', path: '/spec/k', value: 2 },
  ] as never);
  t.deepEqual(out, { kind: 'Widget', metadata: { name: 'w', labels: { b: '2' } }, spec: { list: ['x', 'between', 'y', 'end'], n: 2, k: 2 } });
  t.deepEqual(original, doc(), 'the input is left alone');
});

test("json-patch v4 quirks: replace adds a missing object key; negative indices count from the end", (t) => {
  t.deepEqual(apply([{ op: 'replace', path: '/spec/new', value: true }]).spec, { list: ['x', 'y'], n: 1, new: true });
  t.deepEqual(apply([{ op: 'remove', path: '/spec/list/-1' }]).spec, { list: ['x'], n: 1 });
});

test("errors carry json-patch's texts", (t) => {
  t.is(failure([{ op: 'add', path: '/spec/a/b', value: 1 }]), 'add operation does not apply: doc is missing path: "/spec/a/b": missing value');
  t.is(failure([{ op: 'remove', path: '/spec/nope' }]), "error in remove for path: '/spec/nope': Unable to remove nonexistent key: nope: missing value");
  t.is(failure([{ op: 'replace', path: '/spec/list/5', value: 1 }]), 'replace operation does not apply: doc is missing key: /spec/list/5: missing value');
  t.is(failure([{ op: 'add', path: '/spec/list/9', value: 1 }]), "error in add for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced");
  t.is(failure([{ op: 'add', path: '/spec/list/x', value: 1 }]), "error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax");
  t.is(failure([{ op: 'test', path: '/spec/n', value: 2 }]), 'testing value /spec/n failed: test failed');
  t.is(failure([{ op: 'move', from: '/spec/zz', path: '/spec/n' }]), "error in move for path: 'zz': Unable to remove nonexistent key: zz: missing value");
  t.is(failure([{ op: 'jump', path: '/spec/n' }]), 'Unexpected kind: jump');
});

test('a patch must decode as a JSON array of operations', (t) => {
  const decode = (text: string) => t_throws(() => decodeJsonPatch(Buffer.from(text)));
  t.is(decode('{"op":"add"}'), 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  t.is(decode('["add"]'), 'json: cannot unmarshal string into Go value of type jsonpatch.Operation');
  t.is(decode('[{"op":'), 'unexpected end of JSON input');
  t.deepEqual(decodeJsonPatch(Buffer.from('null')), []);
});

test("Go's JSON syntax errors", (t) => {
  t.is(goJsonSyntaxError('{"a": 1}'), undefined);
  t.is(goJsonSyntaxError('nope'), "invalid character 'o' in literal null (expecting 'u')");
  t.is(goJsonSyntaxError('{"a" 1}'), "invalid character '1' after object key");
  t.is(goJsonSyntaxError('{"a": 1 "b"}'), "invalid character '\"' after object key:value pair");
  t.is(goJsonSyntaxError('{a}'), "invalid character 'a' looking for beginning of object key string");
  t.is(goJsonSyntaxError('[1 2]'), "invalid character '2' after array element");
  t.is(goJsonSyntaxError('{} x'), "invalid character 'x' after top-level value");
  t.is(goJsonSyntaxError('1.x'), "invalid character 'x' after decimal point in numeric literal");
  t.is(goJsonSyntaxError('"a\\q"'), "invalid character 'q' in string escape code");
  t.is(goJsonSyntaxError('{"a":'), 'unexpected end of JSON input');
  t.is(goJsonSyntaxError("'x'"), "invalid character '\\'' looking for beginning of value");
});

test('__proto__ is a key like any other: a path through it finds no member, and one ending in it sets an own field, never a prototype', (t) => {
  const doc = { metadata: { annotations: {} } };
  const through = t.throws(() => applyWebhookPatch(doc, [{ op: 'add', path: '/metadata/annotations/__proto__/polluted', value: 'yes' }]), { instanceOf: JsonPatchError });
  t.is(through?.message, 'add operation does not apply: doc is missing path: "/metadata/annotations/__proto__/polluted": missing value');
  t.is(({} as Record<string, unknown>).polluted, undefined);
  const own = applyWebhookPatch(doc, [{ op: 'add', path: '/metadata/annotations/__proto__', value: { a: 1 } }]);
  const annotations = (own.metadata as Record<string, unknown>).annotations as Record<string, unknown>;
  t.true(Object.hasOwn(annotations, '__proto__'));
  t.is(Object.getPrototypeOf(annotations), Object.prototype);
  t.deepEqual(JSON.parse(JSON.stringify(own)), { metadata: { annotations: { ['__proto__']: { a: 1 } } } });
});
