/** Hostile and malformed requests: each is refused with the right Status, stores nothing, and leaves the server serving. */
import test, { type ExecutionContext } from 'ava';
import { createNamespace, createWidget, expectStatus, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const maxBody = 3 * 1024 * 1024;

/** A namespace holding one widget, `keep`: the baseline that a refused request must leave as it was. */
async function setUp(): Promise<{ ns: string; keep: { metadata: { resourceVersion: string } } }> {
  const ns = await createNamespace(server, 'bad');
  const keep = await createWidget(server, ns, 'keep');
  return { ns, keep };
}

/** The server still answers, and the namespace still holds exactly `keep`, unchanged. */
async function assertUnharmed(t: ExecutionContext, ns: string, keep: { metadata: { resourceVersion: string } }): Promise<void> {
  const ready = await server.request('GET', '/readyz');
  t.is(ready.status, 200, 'server still ready');
  const list = await server.request('GET', widgetsPath(ns));
  t.is(list.status, 200, 'server still lists');
  t.deepEqual(
    list.body.items.map((i: { metadata: { name: string; resourceVersion: string } }) => [i.metadata.name, i.metadata.resourceVersion]),
    [['keep', keep.metadata.resourceVersion]],
    'nothing stored or changed',
  );
}

test('malformed JSON is 400', async (t) => {
  const { ns, keep } = await setUp();
  const res = await server.request('POST', widgetsPath(ns), { rawBody: '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"x"', contentType: 'application/json' });
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  // kube's text: Go's syntax error, and the body's first 30 bytes
  t.is(res.body.message, 'the object provided is unrecognized (must be of type Widget): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"example.com/v1" ...)');
  const badCharacter = await server.request('POST', widgetsPath(ns), { rawBody: '{"kind":"Widget",}', contentType: 'application/json' });
  t.is(badCharacter.body.message, 'the object provided is unrecognized (must be of type Widget): couldn\'t get version/kind; json parse error: invalid character \'}\' looking for beginning of object key string ({"kind":"Widget",})');
  await assertUnharmed(t, ns, keep);
});

test('a patch that is not JSON: kube\'s 400 for each patch type', async (t) => {
  const { ns, keep } = await setUp();
  const path = `${widgetsPath(ns)}/keep`;
  const patch = (contentType: string, query = '') => server.request('PATCH', path + query, { rawBody: '{"spec":', contentType });
  t.like((await patch('application/merge-patch+json')).body, { code: 400, reason: 'BadRequest', message: 'error decoding patch: unexpected end of JSON input' });
  t.like((await patch('application/merge-patch+json', '?fieldValidation=Ignore')).body, { code: 400, message: 'Invalid JSON Patch' });
  t.like((await patch('application/json-patch+json')).body, { code: 400, message: 'unexpected end of JSON input' });
  await assertUnharmed(t, ns, keep);
});

test('a JSON body that is not an object is 400', async (t) => {
  const { ns, keep } = await setUp();
  for (const rawBody of ['[]', '"widget"', '42', 'null']) {
    const res = await server.request('POST', widgetsPath(ns), { rawBody, contentType: 'application/json' });
    t.is(res.status, 400, rawBody);
  }
  await assertUnharmed(t, ns, keep);
});

test('malformed YAML is 400', async (t) => {
  const { ns, keep } = await setUp();
  const rawBody = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: x\nspec: [unclosed\n';
  const res = await server.request('POST', widgetsPath(ns), { rawBody, contentType: 'application/yaml' });
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  await assertUnharmed(t, ns, keep);
});

test('a well-formed YAML body creates the object', async (t) => {
  const ns = await createNamespace(server, 'bad');
  const rawBody = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: from-yaml\nspec:\n  color: teal\n';
  const res = await server.request('POST', widgetsPath(ns), { rawBody, contentType: 'application/yaml' });
  t.is(res.status, 201);
  t.is(res.body.spec.color, 'teal');
});

test('a YAML alias bomb is refused with 400 (how fast is measured in the bench, not here)', async (t) => {
  const { ns, keep } = await setUp();
  // "Billion laughs": 9 levels of 9 aliases each expand to 9^9 strings.
  const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  let bomb = 'spec:\n  a0: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < levels.length; i++) {
    const ref = `*${levels[i - 1]}`;
    bomb += `  a${i}: &${levels[i]} [${Array(9).fill(ref).join(',')}]\n`;
  }
  const rawBody = `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: bomb\n${bomb}`;
  const res = await server.request('POST', widgetsPath(ns), { rawBody, contentType: 'application/yaml' });
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  await assertUnharmed(t, ns, keep);
});

test('a body whose apiVersion does not match the endpoint is 400', async (t) => {
  const { ns, keep } = await setUp();
  const body = { ...widget('x'), apiVersion: 'example.com/v2' };
  const res = await server.request('POST', widgetsPath(ns), { body });
  expectStatus(t, res, {
    code: 400,
    reason: 'BadRequest',
    message: 'the API version in the data (example.com/v2) does not match the expected API version (example.com/v1)',
  });
  const otherGroup = await server.request('POST', widgetsPath(ns), { body: { ...widget('x'), apiVersion: 'other.example.org/v1' } });
  expectStatus(t, otherGroup, { code: 400, reason: 'BadRequest' });
  await assertUnharmed(t, ns, keep);
});

test('a custom resource body of another kind is 422 on kind', async (t) => {
  // apiextensions-apiserver: decoding accepts any kind; customResourceValidator.ValidateTypeMeta then refuses it
  // (test/integration/validation_test.go: `SomethingElse.mygroup.example.com "foo" is invalid: kind: ...`).
  const { ns, keep } = await setUp();
  const res = await server.request('POST', widgetsPath(ns), { body: { ...widget('x'), kind: 'Gadget' } });
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: 'Gadget.example.com "x" is invalid: kind: Invalid value: "Gadget": must be Widget' });
  t.deepEqual(res.body.details?.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Gadget": must be Widget', field: 'kind' }]);
  await assertUnharmed(t, ns, keep);
});

test('PUT with a body name other than the URL name is 400', async (t) => {
  const { ns, keep } = await setUp();
  const current = (await server.request('GET', widgetsPath(ns, 'keep'))).body;
  const res = await server.request('PUT', widgetsPath(ns, 'keep'), { body: { ...current, metadata: { ...current.metadata, name: 'other' } } });
  expectStatus(t, res, { code: 400, reason: 'BadRequest', message: 'the name of the object (other) does not match the name on the URL (keep)' });
  t.is((await server.request('GET', widgetsPath(ns, 'other'))).status, 404);
  await assertUnharmed(t, ns, keep);
});

test('a body over 3 MiB is 413', async (t) => {
  const { ns, keep } = await setUp();
  const body = widget('big', { spec: { color: 'x'.repeat(maxBody) } });
  const res = await server.request('POST', widgetsPath(ns), { body });
  expectStatus(t, res, { code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: limit is ${maxBody}` });
  await assertUnharmed(t, ns, keep);
});

test('a chunked body over 3 MiB (no Content-Length) is 413', async (t) => {
  const { ns, keep } = await setUp();
  const body = widget('big', { spec: { color: 'x'.repeat(maxBody) } });
  const res = await server.request('POST', widgetsPath(ns), { body, chunked: true });
  expectStatus(t, res, { code: 413, reason: 'RequestEntityTooLarge' });
  await assertUnharmed(t, ns, keep);
});

test('a body just under 3 MiB is read in full', async (t) => {
  // Whitespace padding keeps the object small (storage backends have their own, smaller, value limits).
  const ns = await createNamespace(server, 'bad');
  await createWidget(server, ns, 'w1');
  const patch = JSON.stringify({ spec: { color: 'blue' } });
  const rawBody = patch + ' '.repeat(maxBody - patch.length - 16);
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), { rawBody, contentType: 'application/merge-patch+json' });
  t.is(res.status, 200);
  t.is(res.body.spec.color, 'blue');
});

test('JSON nested 10,000 levels deep is 400', async (t) => {
  const { ns, keep } = await setUp();
  const depth = 10_000;
  const rawBody = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"deep"},"spec":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
  const res = await server.request('POST', widgetsPath(ns), { rawBody, contentType: 'application/json' });
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  await assertUnharmed(t, ns, keep);
});

test('a deeply nested merge patch is 400 and changes nothing', async (t) => {
  const { ns, keep } = await setUp();
  const depth = 10_000;
  const rawBody = `{"spec":${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}}`;
  const res = await server.request('PATCH', widgetsPath(ns, 'keep'), { rawBody, contentType: 'application/merge-patch+json' });
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  await assertUnharmed(t, ns, keep);
});

test('a Content-Type the server cannot decode is 415', async (t) => {
  const { ns, keep } = await setUp();
  const res = await server.request('POST', widgetsPath(ns), { rawBody: JSON.stringify(widget('x')), contentType: 'text/plain' });
  expectStatus(t, res, { code: 415, reason: 'UnsupportedMediaType' });
  await assertUnharmed(t, ns, keep);
});

test('Accept: application/xml is 406', async (t) => {
  const { ns, keep } = await setUp();
  const get = await server.request('GET', widgetsPath(ns, 'keep'), { headers: { accept: 'application/xml' } });
  expectStatus(t, get, { code: 406, reason: 'NotAcceptable' });
  const list = await server.request('GET', widgetsPath(ns), { headers: { accept: 'application/xml' } });
  expectStatus(t, list, { code: 406, reason: 'NotAcceptable' });
  await assertUnharmed(t, ns, keep);
});

test('a "__proto__" key is refused whole in any body and codec, never silently dropped', async (t) => {
  const { ns, keep } = await setUp();
  const refused = 'the object provided is unrecognized or malformed: the field name "__proto__" is not supported';
  const merge = await server.request('PATCH', widgetsPath(ns, 'keep'), {
    rawBody: '{"spec":{"__proto__":{"polluted":"yes"}}}',
    contentType: 'application/merge-patch+json',
  });
  expectStatus(t, merge, { code: 400, reason: 'BadRequest', message: refused });
  const create = await server.request('POST', widgetsPath(ns), { rawBody: '{"metadata":{"name":"p","labels":{"__proto__":"x"}}}' });
  expectStatus(t, create, { code: 400, reason: 'BadRequest', message: refused });
  const yaml = await server.request('POST', widgetsPath(ns), { rawBody: 'metadata:\n  name: p\nspec:\n  __proto__:\n    color: blue\n', contentType: 'application/yaml' });
  expectStatus(t, yaml, { code: 400, reason: 'BadRequest', message: refused });
  const apply = await server.request('PATCH', `${widgetsPath(ns, 'keep')}?fieldManager=m`, {
    rawBody: 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: keep\nspec:\n  __proto__:\n    color: blue\n',
    contentType: 'application/apply-patch+yaml',
  });
  expectStatus(t, apply, { code: 400, reason: 'BadRequest', message: refused });
  const jsonPatch = await server.request('PATCH', widgetsPath(ns, 'keep'), {
    body: [{ op: 'add', path: '/spec/__proto__', value: { color: 'blue' } }],
    contentType: 'application/json-patch+json',
  });
  t.true(jsonPatch.status >= 400 && jsonPatch.status < 500, jsonPatch.text);
  t.is(({} as Record<string, unknown>).polluted, undefined);
  await assertUnharmed(t, ns, keep);
});
