// A resource served from its own RestStorage with a status subresource (resourceModule's statusSubresource), over
// HTTP, as kube serves a CRD with `subresources: {status: {}}`: discovery lists `<plural>/status` (get, patch,
// update); a create stores no status; writes of the resource keep the stored status; writes of /status change only
// the status; metadata.generation counts spec changes only; status writes are validated by the schema.
import test from 'ava';
import { errors, resourceModule, type KubeObject, type RestContext, type RestStorage } from '../../index.js';
import { expectStatus, useTestServer } from '../helpers/test-server.js';

const group = 'status.example.com';
const path = `/apis/${group}/v1/namespaces/default/lamps`;

/** Lamps in a map: stores what it is handed, as the generated SQLite storage does. */
const lamps = new Map<string, KubeObject>();
let revision = 0;
const key = (ctx: RestContext, name: string) => `${ctx.namespace}/${name}`;
const stamped = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, resourceVersion: String(++revision) } });
const lampStorage: RestStorage = {
  async get(ctx, name) {
    const found = lamps.get(key(ctx, name));
    if (!found) throw errors.notFound({ group, resource: 'lamps', name });
    return structuredClone(found);
  },
  async create(ctx, object) {
    const stored = stamped(object);
    if (!ctx.dryRun) lamps.set(key(ctx, object.metadata!.name!), stored);
    return stored;
  },
  async update(ctx, name, update) {
    const next = stamped(await update(await lampStorage.get!(ctx, name)));
    if (!ctx.dryRun) lamps.set(key(ctx, name), next);
    return next;
  },
};

const server = useTestServer({
  storage: 'memory',
  modules: [
    resourceModule({
      group,
      versions: ['v1'],
      kind: 'Lamp',
      plural: 'lamps',
      scope: 'Namespaced',
      schema: {
        type: 'object',
        properties: {
          spec: { type: 'object', properties: { watts: { type: 'integer' } } },
          status: { type: 'object', properties: { on: { type: 'boolean' } } },
        },
      },
      storage: lampStorage,
      statusSubresource: true,
    }),
  ],
});

const merge = 'application/merge-patch+json';

test.serial('discovery lists lamps/status with get, patch and update, as for a CRD', async (t) => {
  const res = await server.request('GET', `/apis/${group}/v1`);
  t.is(res.status, 200);
  const status = res.body.resources.find((r: { name: string }) => r.name === 'lamps/status');
  t.like(status, { name: 'lamps/status', kind: 'Lamp', namespaced: true });
  t.deepEqual(status.verbs, ['get', 'patch', 'update']);
});

test.serial('a create stores no status; a patch of the resource keeps the stored status and bumps generation on spec changes only', async (t) => {
  const created = await server.request('POST', path, {
    body: { apiVersion: `${group}/v1`, kind: 'Lamp', metadata: { name: 'desk' }, spec: { watts: 40 }, status: { on: true } },
  });
  t.is(created.status, 201, created.text);
  t.is(created.body.status, undefined);
  t.is(created.body.metadata.generation, 1);

  const statusOnly = await server.request('PATCH', `${path}/desk`, { contentType: merge, body: { status: { on: true } } });
  t.is(statusOnly.status, 200, statusOnly.text);
  t.is(statusOnly.body.status, undefined);
  t.is(statusOnly.body.metadata.generation, 1);

  const spec = await server.request('PATCH', `${path}/desk`, { contentType: merge, body: { spec: { watts: 60 }, status: { on: true } } });
  t.is(spec.status, 200, spec.text);
  t.deepEqual(spec.body.spec, { watts: 60 });
  t.is(spec.body.status, undefined);
  t.is(spec.body.metadata.generation, 2);
});

test.serial('PATCH and PUT of /status change only the status, without bumping generation', async (t) => {
  const patched = await server.request('PATCH', `${path}/desk/status`, { contentType: merge, body: { spec: { watts: 100 }, status: { on: true } } });
  t.is(patched.status, 200, patched.text);
  t.like(patched.body, { kind: 'Lamp', spec: { watts: 60 }, status: { on: true }, metadata: { generation: 2 } });

  const got = await server.request('GET', `${path}/desk/status`);
  t.is(got.status, 200);
  t.like(got.body, { kind: 'Lamp', spec: { watts: 60 }, status: { on: true } });

  const put = await server.request('PUT', `${path}/desk/status`, { body: { ...got.body, spec: { watts: 1 }, status: { on: false } } });
  t.is(put.status, 200, put.text);
  t.like(put.body, { spec: { watts: 60 }, status: { on: false }, metadata: { generation: 2 } });

  const main = await server.request('GET', `${path}/desk`);
  t.like(main.body, { spec: { watts: 60 }, status: { on: false } });
});

test.serial('server-side apply of /status (forced over the earlier writer) sets the status only, owned by its manager for the status subresource', async (t) => {
  const res = await server.request('PATCH', `${path}/desk/status?fieldManager=lamp-controller&force=true`, {
    contentType: 'application/apply-patch+yaml',
    body: { apiVersion: `${group}/v1`, kind: 'Lamp', metadata: { name: 'desk' }, spec: { watts: 5 }, status: { on: true } },
  });
  t.is(res.status, 200, res.text);
  t.like(res.body, { spec: { watts: 60 }, status: { on: true } });
  const entry = res.body.metadata.managedFields.find((f: { manager: string }) => f.manager === 'lamp-controller');
  t.like(entry, { operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:on': {} } } });
});

test.serial('a status write is validated by the schema (422) and stores nothing', async (t) => {
  const res = await server.request('PATCH', `${path}/desk/status`, { contentType: merge, body: { status: { on: 'yes' } } });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  // kube validates /status writes by the status schema alone: the field is named from there
  t.is(res.body.message, 'Lamp.status.example.com "desk" is invalid: status.on: Invalid value: "string": on in body must be of type boolean: "string"');
  t.like((await server.request('GET', `${path}/desk`)).body, { status: { on: true } });
});

test('a status subresource needs the storage\'s get and update', (t) => {
  const error = t.throws(() => resourceModule({ group, versions: ['v1'], kind: 'Bulb', plural: 'bulbs', scope: 'Cluster', storage: { get: lampStorage.get! }, statusSubresource: true }));
  t.regex(error!.message, /bulbs\.status\.example\.com: a status subresource needs the storage's get and update/);
});
