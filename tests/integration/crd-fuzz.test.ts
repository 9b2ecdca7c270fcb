/**
 * A small seeded fuzz run over CRD writes: a few hundred CRD bodies and merge patches with wrong types at random
 * paths, nulls, and lists and objects swapped. Every answer must be a 2xx or a 4xx Status (never a 5xx), and a refused
 * write must store nothing. The seed is fixed, so a failure names a body that reproduces it.
 */
import test from 'ava';
import { useTestServer } from '../helpers/test-server.js';
import { expect2xxOr4xx, mutate, random } from '../helpers/fuzz.js';

const server = useTestServer({ storage: 'memory' });
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function validCrd(group: string): any {
  const schema = {
    type: 'object',
    'x-kubernetes-validations': [{ rule: 'self.spec.size >= 0', message: 'size must not be negative', reason: 'FieldValueInvalid', fieldPath: '.spec' }],
    properties: {
      spec: {
        type: 'object',
        required: ['size'],
        properties: {
          size: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
          mode: { type: 'string', enum: ['a', 'b'], maxLength: 5 },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', maxItems: 4 },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          either: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        },
      },
      status: { type: 'object', properties: { replicas: { type: 'integer', format: 'int32' } } },
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `things.${group}`, labels: { fuzz: 'yes' }, annotations: { note: 'n' }, finalizers: ['example.com/keep'] },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList', shortNames: ['th'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas' } },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 0 }],
        },
      ],
      conversion: { strategy: 'None' },
    },
  };
}

test('mutated CRD bodies are answered 2xx or 4xx, and a refused create stores nothing', async (t) => {
  const next = random(20261126);
  for (let i = 0; i < 250; i++) {
    const body = validCrd(`g${i}.fuzz.example.com`);
    mutate(next, body);
    const sent = JSON.stringify(body);
    const res = await server.request('POST', crdsPath, { body });
    expect2xxOr4xx(t, res, `create ${sent}`);
    if (res.status < 300) {
      await server.request('DELETE', `${crdsPath}/${res.body.metadata.name}`);
      continue;
    }
    // Whatever name the body carried, no CRD of this iteration's group is stored.
    const list = await server.request('GET', `${crdsPath}?labelSelector=fuzz%3Dyes`);
    t.false(
      list.body.items.some((c: any) => c.spec.group === `g${i}.fuzz.example.com`),
      `refused create was stored: ${sent}`,
    );
  }
});

test('mutated merge patches of a stored CRD are answered 2xx or 4xx, and a refused one changes nothing', async (t) => {
  const next = random(7);
  const created = await server.request('POST', crdsPath, { body: validCrd('patched.fuzz.example.com') });
  t.is(created.status, 201, created.text);
  const path = `${crdsPath}/things.patched.fuzz.example.com`;
  for (let i = 0; i < 150; i++) {
    const before = await server.request('GET', path);
    const patch = validCrd('patched.fuzz.example.com');
    mutate(next, patch);
    const res = await server.request('PATCH', path, { body: patch, contentType: 'application/merge-patch+json' });
    expect2xxOr4xx(t, res, `patch ${JSON.stringify(patch)}`);
    if (res.status >= 400) {
      const after = await server.request('GET', path);
      t.is(after.body.metadata.resourceVersion, before.body.metadata.resourceVersion, `refused patch changed the CRD: ${JSON.stringify(patch)}`);
    }
  }
});
