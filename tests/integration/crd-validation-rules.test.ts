/** x-kubernetes-validations (CEL) rules: checked when the CRD is admitted, enforced on every write of its objects. */
import test from 'ava';
import { installCrd, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const base = '/apis/example.com/v1/namespaces/default/gadgets';

function gadgetsCrd(rules: Record<string, unknown>[], plural = 'gadgets', kind = 'Gadget') {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': rules,
                  properties: { min: { type: 'integer' }, max: { type: 'integer' }, name: { type: 'string' } },
                },
              },
            },
          },
        },
      ],
    },
  };
}

test.before(async () => {
  await installCrd(
    server,
    gadgetsCrd([
      { rule: 'self.min <= self.max', message: 'min must not exceed max' },
      { rule: "!has(self.name) || self.name.startsWith('g-')", messageExpression: "'name ' + self.name + ' must start with g-'", fieldPath: '.name' },
      { rule: 'self.max == oldSelf.max || self.max > oldSelf.max', message: 'max may only grow' },
    ]),
  );
});

const gadget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name }, spec });

test('an object that satisfies the rules is stored', async (t) => {
  const res = await server.request('POST', base, { body: gadget('ok', { min: 1, max: 2, name: 'g-1' }) });
  t.is(res.status, 201);
});

test('a broken rule is 422 with its message, a messageExpression and a fieldPath', async (t) => {
  const res = await server.request('POST', base, { body: gadget('bad', { min: 3, max: 2, name: 'x' }) });
  t.is(res.status, 422);
  t.deepEqual(res.body.details.causes, [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": min must not exceed max', field: 'spec' },
    // kube names the type of the schema node that carries the rule (spec), even when fieldPath points deeper.
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": name x must start with g-', field: 'spec.name' },
  ]);
});

test('a transition rule compares with the stored object on update', async (t) => {
  await server.request('POST', base, { body: gadget('grow', { min: 1, max: 5 }) });
  const shrink = await server.request('PATCH', `${base}/grow`, { body: { spec: { max: 4 } }, contentType: 'application/merge-patch+json' });
  t.is(shrink.status, 422);
  t.is(shrink.body.message, 'Gadget.example.com "grow" is invalid: spec: Invalid value: "object": max may only grow');
  const grow = await server.request('PATCH', `${base}/grow`, { body: { spec: { max: 6 } }, contentType: 'application/merge-patch+json' });
  t.is(grow.status, 200);
});

test('a CRD whose rule does not compile is refused with the rule and position', async (t) => {
  const res = await server.request('POST', crdsPath, { body: gadgetsCrd([{ rule: 'self.min <= ' }], 'brokens', 'Broken') });
  t.is(res.status, 422);
  t.is(res.body.details.causes.length, 1);
  t.is(res.body.details.causes[0].field, 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule');
  t.regex(res.body.details.causes[0].message, /compilation failed: ERROR: <input>:1:13: Syntax error/);
});

test('a regular expression that would backtrack forever is matched in linear time', async (t) => {
  await installCrd(server, gadgetsCrd([{ rule: "!has(self.name) || !self.name.matches('^(a+)+$')" }], 'gizmos', 'Gizmo'));
  const started = Date.now();
  const res = await server.request('POST', '/apis/example.com/v1/namespaces/default/gizmos', {
    body: { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'redos' }, spec: { name: 'a'.repeat(50_000) + 'b' } },
  });
  t.is(res.status, 201);
  t.true(Date.now() - started < 5_000);
});
