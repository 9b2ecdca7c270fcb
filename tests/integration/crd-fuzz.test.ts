/**
 * A small seeded fuzz run over CRD writes: a few hundred CRD bodies and merge patches with wrong types at random
 * paths, nulls, and lists and objects swapped. Every answer must be a 2xx or a 4xx Status (never a 5xx), and a refused
 * write must store nothing. The seed is fixed, so a failure names a body that reproduces it.
 */
import test from 'ava';
import { useTestServer, type TestResponse } from '../helpers/test-server.js';

const server = useTestServer({ storage: 'memory' });
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** mulberry32: a tiny deterministic PRNG. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** Every path to a value below the object (the root's apiVersion and kind excluded: they pick the endpoint). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const out: (string | number)[][] = [];
  for (const [k, v] of entries) {
    if (prefix.length === 0 && (k === 'apiVersion' || k === 'kind')) continue;
    out.push([...prefix, k], ...paths(v, [...prefix, k]));
  }
  return out;
}

const pick = <T>(next: () => number, choices: T[]): T => choices[Math.floor(next() * choices.length)];

/** A value of the same JSON type (half the time), else one of any type: nulls, wrong types, lists and objects swapped. */
function mutant(next: () => number, current: unknown): unknown {
  if (next() < 0.5) {
    if (typeof current === 'string') return pick(next, ['', 'x', 'Upper_Case', 'a.b.c', '*', 'self.x ==', 'v1', '-']);
    if (typeof current === 'boolean') return !current;
    if (typeof current === 'number') return pick(next, [-1, 0, 1.5, 2 ** 40]);
    if (Array.isArray(current)) return pick(next, [[], [null], [...current, ...current]]);
    if (current !== null && typeof current === 'object') return pick(next, [{}, { a: null }, { ...current, extra: 1 }]);
  }
  if (Array.isArray(current) && next() < 0.3) return Object.fromEntries(current.map((v, i) => [`k${i}`, v]));
  if (current !== null && typeof current === 'object' && !Array.isArray(current) && next() < 0.3) return Object.values(current);
  return pick(next, [null, 'x', '', 7, -1, 1.5, 2 ** 40, true, false, [], {}, [null], [1], ['a'], { a: 1 }, { a: null }, [[]], [{}]]);
}

function mutate(next: () => number, body: any): void {
  const count = 1 + Math.floor(next() * 3);
  for (let i = 0; i < count; i++) {
    const all = paths(body);
    if (all.length === 0) return;
    const path = all[Math.floor(next() * all.length)];
    let parent = body;
    for (const k of path.slice(0, -1)) parent = parent[k];
    const key = path[path.length - 1];
    parent[key] = mutant(next, parent[key]);
  }
}

function expect4xxOr2xx(t: any, res: TestResponse, what: string): void {
  t.true(res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status >= 400) t.is(res.body?.kind, 'Status', `${what}: ${res.text.slice(0, 300)}`);
}

test('mutated CRD bodies are answered 2xx or 4xx, and a refused create stores nothing', async (t) => {
  const next = random(20261126);
  for (let i = 0; i < 250; i++) {
    const body = validCrd(`g${i}.fuzz.example.com`);
    mutate(next, body);
    const sent = JSON.stringify(body);
    const res = await server.request('POST', crdsPath, { body });
    expect4xxOr2xx(t, res, `create ${sent}`);
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
    expect4xxOr2xx(t, res, `patch ${JSON.stringify(patch)}`);
    if (res.status >= 400) {
      const after = await server.request('GET', path);
      t.is(after.body.metadata.resourceVersion, before.body.metadata.resourceVersion, `refused patch changed the CRD: ${JSON.stringify(patch)}`);
    }
  }
});
