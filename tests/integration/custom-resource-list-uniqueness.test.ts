/**
 * `x-kubernetes-list-type: map` and `set` lists of custom resources keep their items unique, as kube-apiserver
 * enforces it: a later duplicate is a `Duplicate value` cause of a 422 on every write path, ratcheted on update only
 * when the replaced object already had duplicates.
 */
import test from 'ava';
import { apply } from '../helpers/ssa.js';
import { createNamespace, installCrd, useTestServer, type TestResponse } from '../helpers/test-server.js';

const server = useTestServer();

const portItem = { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } };

const traysCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'trays.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'trays', kind: 'Tray' },
    versions: [
      // no schema to speak of: objects with duplicates can be stored through it
      { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: "!has(self.mode) || self.mode != 'bad'", message: 'mode must not be bad' }],
                properties: {
                  replicas: { type: 'integer', minimum: 0 },
                  mode: { type: 'string' },
                  ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: portItem },
                  endpoints: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'], items: portItem },
                  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                  ids: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
                  // an atomic list (a leaf to Server-Side Apply) whose items hold sets
                  groups: { type: 'array', items: { type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } } },
                },
              },
              status: {
                type: 'object',
                properties: {
                  conditions: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['type'],
                    items: { type: 'object', required: ['type'], properties: { type: { type: 'string' }, status: { type: 'string' } } },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

test.before(async () => {
  await installCrd(server, traysCrd);
});

const tray = (name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ apiVersion: 'example.com/v1', kind: 'Tray', metadata: { name }, spec, ...extra });

async function traysIn(): Promise<string> {
  return `/apis/example.com/v1/namespaces/${await createNamespace(server, 'listuniq')}/trays`;
}

/** A stored tray without duplicates, and its path. */
async function storedTray(name: string, spec: Record<string, unknown> = { ports: [{ port: 80 }], tags: ['a'] }): Promise<string> {
  const base = await traysIn();
  const res = await server.request('POST', base, { body: tray(name, spec) });
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
  return `${base}/${name}`;
}

const duplicate = (field: string, value: string) => ({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${value}`, field });

function expectInvalid(t: import('ava').ExecutionContext, res: TestResponse, name: string, causes: { reason: string; message: string; field: string }[]): void {
  t.is(res.status, 422, res.text);
  t.is(res.body.reason, 'Invalid');
  const list = causes.map((c) => `${c.field}: ${c.message}`);
  t.is(res.body.message, `Tray.example.com "${name}" is invalid: ${list.length === 1 ? list[0] : `[${list.join(', ')}]`}`);
  t.deepEqual(res.body.details.causes, causes);
}

const port80 = 'map[string]interface {}{"port":80}';

test('create: a duplicate key of a one-key map list is refused at the later item', async (t) => {
  const res = await server.request('POST', await traysIn(), { body: tray('c1', { ports: [{ port: 80, name: 'a' }, { port: 443 }, { port: 80, name: 'b' }] }) });
  expectInvalid(t, res, 'c1', [duplicate('spec.ports[2]', port80)]);
});

test('create: a multi-key map list compares every key, after defaulting', async (t) => {
  const base = await traysIn();
  const res = await server.request('POST', base, { body: tray('c2', { endpoints: [{ port: 80 }, { port: 80, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }] }) });
  expectInvalid(t, res, 'c2', [duplicate('spec.endpoints[2]', 'map[string]interface {}{"port":80, "protocol":"TCP"}')]);
  const distinct = await server.request('POST', base, { body: tray('c3', { endpoints: [{ port: 80 }, { port: 80, protocol: 'UDP' }] }) });
  t.is(distinct.status, 201, distinct.text);
});

test('create: a set reports each duplicated value once, at its second occurrence', async (t) => {
  const res = await server.request('POST', await traysIn(), { body: tray('c4', { tags: ['a', 'b', 'a', 'a', 'b'], ids: [7, 7] }) });
  expectInvalid(t, res, 'c4', [duplicate('spec.ids[1]', '7'), duplicate('spec.tags[2]', '"a"'), duplicate('spec.tags[4]', '"b"')]);
});

test('the causes come after the schema causes and before the CEL rules, in one 422', async (t) => {
  const res = await server.request('POST', await traysIn(), { body: tray('c5', { replicas: -1, mode: 'bad', tags: ['a', 'a'] }) });
  expectInvalid(t, res, 'c5', [
    { reason: 'FieldValueInvalid', message: 'Invalid value: -1: spec.replicas in body should be greater than or equal to 0', field: 'spec.replicas' },
    duplicate('spec.tags[1]', '"a"'),
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": mode must not be bad', field: 'spec' },
  ]);
});

test('update (PUT) with a duplicate is refused', async (t) => {
  const path = await storedTray('u1');
  const current = await server.request('GET', path);
  const res = await server.request('PUT', path, { body: { ...current.body, spec: { ports: [{ port: 80 }, { port: 80 }] } } });
  expectInvalid(t, res, 'u1', [duplicate('spec.ports[1]', port80)]);
});

test('merge patch and JSON patch that add a duplicate are refused', async (t) => {
  const path = await storedTray('p1');
  const merge = await server.request('PATCH', path, { body: { spec: { tags: ['b', 'b'] } }, contentType: 'application/merge-patch+json' });
  expectInvalid(t, merge, 'p1', [duplicate('spec.tags[1]', '"b"')]);
  const json = await server.request('PATCH', path, { body: [{ op: 'add', path: '/spec/ports/-', value: { port: 80, name: 'again' } }], contentType: 'application/json-patch+json' });
  expectInvalid(t, json, 'p1', [duplicate('spec.ports[1]', port80)]);
  t.deepEqual((await server.request('GET', path)).body.spec, { ports: [{ port: 80, protocol: 'TCP' }], tags: ['a'] });
});

test('strategic merge patch (kapi serves it for custom resources) that replaces a list with duplicates is refused', async (t) => {
  const path = await storedTray('p2');
  const res = await server.request('PATCH', path, {
    body: { spec: { ports: [{ $patch: 'replace' }, { port: 80, name: 'a' }, { port: 80, name: 'b' }] } },
    contentType: 'application/strategic-merge-patch+json',
  });
  expectInvalid(t, res, 'p2', [duplicate('spec.ports[1]', port80)]);
});

test('server-side apply: duplicates inside an atomic list (which apply does not key) are refused', async (t) => {
  const base = await traysIn();
  const res = await apply(server, `${base}/a1`, tray('a1', { groups: [{ tags: ['x'] }, { tags: ['y', 'y'] }] }));
  expectInvalid(t, res, 'a1', [duplicate('spec.groups[1].tags[1]', '"y"')]);
  t.is((await server.request('GET', `${base}/a1`)).status, 404);
});

test('status subresource: duplicates under status are refused on PUT and merge patch', async (t) => {
  const path = await storedTray('s1');
  const current = await server.request('GET', path);
  const conditions = [{ type: 'Ready', status: 'True' }, { type: 'Ready', status: 'False' }];
  const put = await server.request('PUT', `${path}/status`, { body: { ...current.body, status: { conditions } } });
  expectInvalid(t, put, 's1', [duplicate('status.conditions[1]', 'map[string]interface {}{"type":"Ready"}')]);
  const patch = await server.request('PATCH', `${path}/status`, { body: { status: { conditions } }, contentType: 'application/merge-patch+json' });
  expectInvalid(t, patch, 's1', [duplicate('status.conditions[1]', 'map[string]interface {}{"type":"Ready"}')]);
});

test('ratcheting: an object that already has duplicates anywhere is not checked on update; once clean, it is', async (t) => {
  const base = await traysIn();
  // stored through the schemaless version, duplicates and all
  const legacy = await server.request('POST', base.replace('/v1/', '/v1beta1/'), {
    body: { apiVersion: 'example.com/v1beta1', kind: 'Tray', metadata: { name: 'r1' }, spec: { tags: ['a', 'a'] } },
  });
  t.is(legacy.status, 201, legacy.text);
  const path = `${base}/r1`;
  const merge = (body: unknown) => server.request('PATCH', path, { body, contentType: 'application/merge-patch+json' });
  // kube checks the new object only when the old one has no duplicates at all: new ones go through too
  const more = await merge({ spec: { ports: [{ port: 80 }, { port: 80 }] } });
  t.is(more.status, 200, more.text);
  const status = await server.request('PATCH', `${path}/status`, { body: { status: { conditions: [{ type: 'A' }, { type: 'A' }] } }, contentType: 'application/merge-patch+json' });
  t.is(status.status, 200, status.text);
  const clean = await merge({ spec: { tags: ['a'], ports: [{ port: 80 }] } });
  t.is(clean.status, 200, clean.text);
  const cleanStatus = await server.request('PATCH', `${path}/status`, { body: { status: { conditions: [] } }, contentType: 'application/merge-patch+json' });
  t.is(cleanStatus.status, 200, cleanStatus.text);
  const again = await merge({ spec: { tags: ['b', 'b'] } });
  expectInvalid(t, again, 'r1', [duplicate('spec.tags[1]', '"b"')]);
});

test('a CRD whose default has duplicates is accepted (kube does not check defaults for it); objects defaulted by it are refused', async (t) => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'shelves.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'shelves', kind: 'Shelf' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' }, default: ['x', 'x'] } } } },
            },
          },
        },
      ],
    },
  };
  await installCrd(server, crd);
  const base = '/apis/example.com/v1/namespaces/default/shelves';
  const defaulted = await server.request('POST', base, { body: { apiVersion: 'example.com/v1', kind: 'Shelf', metadata: { name: 'd1' }, spec: {} } });
  t.is(defaulted.status, 422, defaulted.text);
  t.is(defaulted.body.message, 'Shelf.example.com "d1" is invalid: spec.tags[1]: Duplicate value: "x"');
  const given = await server.request('POST', base, { body: { apiVersion: 'example.com/v1', kind: 'Shelf', metadata: { name: 'd2' }, spec: { tags: ['x'] } } });
  t.is(given.status, 201, given.text);
});
