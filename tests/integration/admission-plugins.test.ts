// In-process admission plugins: phase order, configured order, operation/resource matching, warnings, refusals,
// side effects on dry run. Test plugins are registered by a module, as a user's would be.
import test from 'ava';
import { errors, Tokens, type AdmissionAttributes, type AdmissionPlugin, type Module } from '../../index.js';
import { createNamespace, expectStatus, installCrd, suffix, useTestServer, widget, widgetsCrd, widgetsPath } from '../helpers/test-server.js';

/** What the plugins saw: `<plugin> <operation> <name>[/<subresource>]`. */
const calls: string[] = [];
const seen = (name: string) => calls.filter((c) => c.split(' ')[2]?.split('/')[0] === name);
const label = (attrs: AdmissionAttributes, key: string) => attrs.object.metadata?.labels?.[key];
const widgets = [{ apiGroups: ['example.com'], resources: ['widgets'] }];

/** Appends its name to the `trace` annotation. */
const tracer = (name: string): AdmissionPlugin => ({
  name,
  operations: ['CREATE', 'UPDATE'],
  rules: widgets,
  sideEffects: 'None',
  admit(attrs) {
    calls.push(`${name} ${attrs.operation} ${attrs.name}`);
    const meta = attrs.object.metadata!;
    meta.annotations = { ...meta.annotations, trace: (meta.annotations?.trace ?? '') + name };
  },
});

const plugins: AdmissionPlugin[] = [
  tracer('a'),
  tracer('b'),
  {
    name: 'breaker',
    operations: ['CREATE'],
    rules: widgets,
    sideEffects: 'None',
    admit(attrs) {
      if (label(attrs, 'break') === 'yes') (attrs.object.spec as { replicas: number }).replicas = -5;
    },
  },
  {
    name: 'checker',
    operations: ['*'],
    rules: widgets,
    sideEffects: 'None',
    validate(attrs) {
      calls.push(`checker ${attrs.operation} ${attrs.name} trace=${attrs.object.metadata?.annotations?.trace ?? ''} dryRun=${attrs.dryRun}`);
      attrs.warnings.push(`checked ${attrs.name}`);
      if ((attrs.object.spec as { color?: string } | undefined)?.color === 'refused') {
        throw errors.forbidden({ group: 'example.com', resource: 'widgets', name: attrs.name }, 'color "refused" is not allowed');
      }
      if (attrs.operation === 'DELETE' && label(attrs, 'keep') === 'yes') {
        throw errors.forbidden({ group: 'example.com', resource: 'widgets', name: attrs.name }, 'this widget is kept');
      }
    },
  },
  {
    name: 'status-only',
    operations: ['UPDATE'],
    rules: [{ apiGroups: ['example.com'], resources: ['widgets/status'] }],
    sideEffects: 'None',
    admit: (attrs) => void calls.push(`status-only ${attrs.operation} ${attrs.name}/${attrs.subresource}`),
  },
  {
    name: 'other-group',
    operations: ['*'],
    rules: [{ apiGroups: [''], resources: ['*'] }],
    sideEffects: 'None',
    admit: (attrs) => void calls.push(`other-group ${attrs.operation} ${attrs.name}`),
  },
  {
    name: 'dry-aware',
    operations: ['CREATE'],
    rules: widgets,
    sideEffects: 'NoneOnDryRun',
    admit: (attrs) => void calls.push(`dry-aware ${attrs.operation} ${attrs.name} dryRun=${attrs.dryRun}`),
  },
  {
    name: 'side-effects',
    operations: ['CREATE', 'DELETE'],
    rules: [{ apiGroups: ['example.com'], resources: ['gizmos'] }],
    sideEffects: 'Some',
    admit: (attrs) => void calls.push(`side-effects ${attrs.operation} ${attrs.name}`),
  },
  { name: 'unlisted', operations: ['*'], rules: [{ apiGroups: ['*'], resources: ['*/*'] }], sideEffects: 'None', admit: () => void calls.push('unlisted') },
];

const testPlugins: Module = (c) => {
  for (const p of plugins) c.register(Tokens.AdmissionPlugin, { useValue: p });
};

const server = useTestServer({
  storage: 'memory',
  widgetsCrd: true,
  modules: [testPlugins],
  // b before a: the configured order, not the registration order; 'unlisted' is registered but not enabled.
  config: { admissionPlugins: ['NamespaceLifecycle', 'b', 'a', 'breaker', 'checker', 'status-only', 'other-group', 'dry-aware', 'side-effects'] },
});

test.serial.before(async () => {
  const crd = await widgetsCrd();
  crd.metadata.name = 'gizmos.example.com';
  crd.spec.names = { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' };
  await installCrd(server, crd);
});

test('mutating plugins run in the configured order, then validation, then validating plugins', async (t) => {
  const ns = await createNamespace(server, 'adm');
  const name = `w-${suffix()}`;
  const res = await server.request('POST', widgetsPath(ns), { body: widget(name) });
  t.is(res.status, 201, res.text);
  t.is(res.body.metadata.annotations.trace, 'ba');
  t.deepEqual(seen(name), ['b CREATE ' + name, 'a CREATE ' + name, `dry-aware CREATE ${name} dryRun=false`, `checker CREATE ${name} trace=ba dryRun=false`]);
  t.false(calls.includes('unlisted'));
});

test('validation runs after the mutating plugins and before the validating ones', async (t) => {
  const ns = await createNamespace(server, 'adm');
  const name = `w-${suffix()}`;
  const res = await server.request('POST', widgetsPath(ns), { body: widget(name, { labels: { break: 'yes' } }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.regex(res.body.message, /spec\.replicas: Invalid value: -5/);
  t.false(seen(name).some((c) => c.startsWith('checker')));
});

test('warnings of plugins reach the Warning header', async (t) => {
  const ns = await createNamespace(server, 'adm');
  const name = `w-${suffix()}`;
  const res = await server.request('POST', widgetsPath(ns), { body: widget(name) });
  t.is(res.headers.warning, `299 - "checked ${name}"`);
  const del = await server.request('DELETE', widgetsPath(ns, name));
  t.is(del.status, 200);
  t.is(del.headers.warning, `299 - "checked ${name}"`);
});

test('a plugin refuses a write with its ApiError; nothing is stored', async (t) => {
  const ns = await createNamespace(server, 'adm');
  const name = `w-${suffix()}`;
  const res = await server.request('POST', widgetsPath(ns), { body: widget(name, { spec: { color: 'refused' } }) });
  expectStatus(t, res, { code: 403, reason: 'Forbidden', message: `widgets.example.com "${name}" is forbidden: color "refused" is not allowed` });
  t.is((await server.request('GET', widgetsPath(ns, name))).status, 404);
});

test('updates and deletes are admitted too; a refused delete keeps the object', async (t) => {
  const ns = await createNamespace(server, 'adm');
  const name = `w-${suffix()}`;
  const created = await server.request('POST', widgetsPath(ns), { body: widget(name, { labels: { keep: 'yes' } }) });
  const put = await server.request('PUT', widgetsPath(ns, name), { body: { ...created.body, spec: { color: 'refused' } } });
  expectStatus(t, put, { code: 403, reason: 'Forbidden' });
  const del = await server.request('DELETE', widgetsPath(ns, name));
  expectStatus(t, del, { code: 403, reason: 'Forbidden', message: `widgets.example.com "${name}" is forbidden: this widget is kept` });
  t.is((await server.request('GET', widgetsPath(ns, name))).status, 200);
  t.true(seen(name).some((c) => c.startsWith(`checker DELETE ${name} trace=ba`)), 'DELETE sees the stored object');
});

test('plugins match operations and (sub)resources', async (t) => {
  const ns = await createNamespace(server, 'adm');
  const name = `w-${suffix()}`;
  const created = await server.request('POST', widgetsPath(ns), { body: widget(name) });
  const status = await server.request('PUT', `${widgetsPath(ns, name)}/status`, { body: { ...created.body, status: { ready: true } } });
  t.is(status.status, 200, status.text);
  const mine = seen(name);
  t.true(mine.includes(`status-only UPDATE ${name}/status`));
  t.is(mine.filter((c) => c.startsWith('status-only')).length, 1, 'not on the main resource');
  t.false(mine.some((c) => c.startsWith('other-group')), 'a core-group rule does not match widgets');
  t.false(mine.some((c) => c.startsWith('dry-aware UPDATE')), 'CREATE only');
  t.true(calls.includes(`other-group CREATE ${ns}`), 'a core-group rule matches namespaces');
});

test('a plugin with side effects refuses dry runs it matches; NoneOnDryRun plugins run on them', async (t) => {
  const ns = await createNamespace(server, 'adm');
  const name = `g-${suffix()}`;
  const gizmos = `/apis/example.com/v1/namespaces/${ns}/gizmos`;
  const body = { ...widget(name), kind: 'Gizmo' };
  const dry = await server.request('POST', `${gizmos}?dryRun=All`, { body });
  expectStatus(t, dry, { code: 400, reason: 'BadRequest', message: 'admission plugin "side-effects" does not support dry run' });
  t.false(calls.includes(`side-effects CREATE ${name}`));
  t.is((await server.request('POST', gizmos, { body })).status, 201, 'without dry run it runs');
  t.true(calls.includes(`side-effects CREATE ${name}`));
  expectStatus(t, await server.request('DELETE', `${gizmos}/${name}?dryRun=All`), { code: 400, reason: 'BadRequest' });

  const w = `w-${suffix()}`;
  const res = await server.request('POST', `${widgetsPath(ns)}?dryRun=All`, { body: widget(w) });
  t.is(res.status, 201, res.text);
  t.true(calls.includes(`dry-aware CREATE ${w} dryRun=true`));
  t.true(calls.includes(`checker CREATE ${w} trace=ba dryRun=true`));
});
