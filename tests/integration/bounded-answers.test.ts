// Bodies that produce a huge number of warnings or errors: the Warning headers stay bounded and valid as kube's
// warning recorder keeps them (so Node clients can read them), and error answers list at most 100 causes and say
// how many more there were, so no Status exceeds 1 MiB.
import test from 'ava';
import { Tokens, type AdmissionPlugin, type Module } from '../../index.js';
import { expectStatus, installCrd, useTestServer, type TestResponse } from '../helpers/test-server.js';

const things = '/apis/example.com/v1/namespaces/default/things';
const MiB = 1024 * 1024;

const thingsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'things.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { numbers: { type: 'array', items: { type: 'integer' } } } } },
          },
        },
      },
    ],
  },
};

/** Warns twice with the same text about every thing it validates. */
const repeater: AdmissionPlugin = {
  name: 'repeater',
  operations: ['CREATE'],
  rules: [{ apiGroups: ['example.com'], resources: ['things'] }],
  sideEffects: 'None',
  validate(attrs) {
    attrs.warnings.push(`looked at ${attrs.name}`, `looked at ${attrs.name}`);
  },
};
const testPlugins: Module = (c) => void c.register(Tokens.AdmissionPlugin, { useValue: repeater });

const server = useTestServer({ storage: 'memory', modules: [testPlugins] });

test.serial.before(async () => {
  await installCrd(server, thingsCrd);
});

function thing(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name }, spec };
}

/** The Warning header values as sent: Node hands header bytes over as Latin-1 characters, kube sends UTF-8. */
function warnings(res: TestResponse): string[] {
  const values: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    if (res.rawHeaders[i]!.toLowerCase() === 'warning') values.push(Buffer.from(res.rawHeaders[i + 1]!, 'latin1').toString('utf8'));
  }
  return values;
}

/** The bytes of the Warning header lines (`Warning: <value>\r\n`). */
function warningBytes(res: TestResponse): number {
  let bytes = 0;
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    if (res.rawHeaders[i]!.toLowerCase() === 'warning') bytes += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
  }
  return bytes;
}

/** The text of a `299 - "<text>"` value, unescaped. */
function warningText(value: string): string {
  const m = /^299 - "(.*)"$/s.exec(value);
  if (!m) throw new Error(`not a kube warning: ${value}`);
  return m[1]!.replace(/\\(.)/gs, '$1');
}

test('16,000 unknown fields under fieldValidation=Warn: a Warning block Node clients can read, bounded as kube bounds it', async (t) => {
  const spec: Record<string, number> = {};
  for (let i = 0; i < 16_000; i++) spec[`f${i}`] = i;
  const res = await server.request('POST', `${things}?fieldValidation=Warn`, { body: thing('many-unknown', spec) });
  t.is(res.status, 201, res.text.slice(0, 300));
  const sent = warnings(res);
  // unknown fields come sorted by path; the admission plugin's warning comes after them and is over the limit
  t.is(sent[0], '299 - "unknown field \\"spec.f0\\""');
  t.is(sent[1], '299 - "unknown field \\"spec.f1\\""');
  t.true(sent.length > 100 && sent.length < 200, `${sent.length} warnings`);
  const runes = sent.reduce((n, v) => n + [...warningText(v)].length, 0);
  t.true(runes <= 4 * 1024 + 256, `${runes} runes of warnings`);
  t.true(warningBytes(res) <= 8 * 1024, `${warningBytes(res)} bytes of Warning headers`);
  t.false(sent.some((v) => v.includes('looked at')));
});

test('a warning is sent once however often it is recorded', async (t) => {
  const res = await server.request('POST', things, { body: thing('repeated', { numbers: [1] }) });
  t.is(res.status, 201, res.text.slice(0, 300));
  t.deepEqual(warnings(res), ['299 - "looked at repeated"']);
});

test('an unknown field named outside Latin-1 is warned about with the UTF-8 bytes kube sends', async (t) => {
  const res = await server.request('POST', `${things}?fieldValidation=Warn`, { body: thing('colour', { 'colour€': 'red', 'say "hi"\\': 1 }) });
  t.is(res.status, 201, res.text.slice(0, 300));
  t.deepEqual(warnings(res), [
    '299 - "unknown field \\"spec.colour€\\""',
    '299 - "unknown field \\"spec.say \\"hi\\"\\\\\\""',
    '299 - "looked at colour"',
  ]);
});

test('an unknown field whose name holds a control character is not warned about, as kube drops such a warning', async (t) => {
  const res = await server.request('POST', `${things}?fieldValidation=Warn`, { body: thing('bell', { 'ring\u0007': 1 }) });
  t.is(res.status, 201, res.text.slice(0, 300));
  t.deepEqual(warnings(res), ['299 - "looked at bell"']);
});

test('100,000 unknown fields under fieldValidation=Strict: a 400 that lists 100 of them and counts the rest', async (t) => {
  const spec: Record<string, number> = {};
  for (let i = 0; i < 100_000; i++) spec[`f${i}`] = i;
  const res = await server.request('POST', `${things}?fieldValidation=Strict`, { body: thing('strict', spec) });
  expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  t.true(Buffer.byteLength(res.text) <= MiB, `${Buffer.byteLength(res.text)} bytes`);
  t.true(res.body.message.startsWith('Thing in version "v1" cannot be handled as a Thing: strict decoding error: unknown field "spec.f0", '));
  t.true(res.body.message.endsWith(', and 99900 more errors'), res.body.message.slice(-100));
});

// 250,000 causes: more than a spread into push(...) takes (the stack overflowed, and that answered a 400)
test('a custom resource with 250,000 invalid list items: a 422 of 100 causes and one that counts the rest', async (t) => {
  const numbers = Array.from({ length: 250_000 }, (_, i) => `n${i}`);
  const res = await server.request('POST', things, { body: thing('bad-items', { numbers }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.true(Buffer.byteLength(res.text) <= MiB, `${Buffer.byteLength(res.text)} bytes`);
  const causes = res.body.details.causes;
  t.is(causes.length, 101);
  t.deepEqual(causes[0], {
    reason: 'FieldValueTypeInvalid',
    message: 'Invalid value: "string": spec.numbers[0] in body must be of type integer: "string"',
    field: 'spec.numbers[0]',
  });
  t.deepEqual(causes[100], { message: 'and 249900 more errors' });
  t.true(res.body.message.startsWith('Thing.example.com "bad-items" is invalid: [spec.numbers[0]: Invalid value: "string": '));
  t.true(res.body.message.endsWith(', and 249900 more errors]'), res.body.message.slice(-100));
});

test('a ValidatingAdmissionPolicy with 100,000 empty resources: a 422 of 100 causes and one that counts the rest', async (t) => {
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'empties' },
    spec: {
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: Array.from({ length: 100_000 }, () => '') }],
      },
      validations: [{ expression: 'true' }],
    },
  };
  const res = await server.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', { body: policy });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.true(Buffer.byteLength(res.text) <= MiB, `${Buffer.byteLength(res.text)} bytes`);
  const causes = res.body.details.causes;
  t.is(causes.length, 101);
  t.is(causes[0].field, 'spec.matchConstraints.resourceRules[0].resources[0]');
  t.deepEqual(causes[100], { message: 'and 99900 more errors' });
  t.true(res.body.message.endsWith(', and 99900 more errors]'), res.body.message.slice(-100));
});
