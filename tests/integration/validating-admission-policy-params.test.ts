// ValidatingAdmissionPolicy params: a CRD as paramKind (namespaced and cluster-scoped), paramRef by name (in the
// request's namespace or a given one) and by selector (every match evaluated), parameterNotFoundAction, and a
// paramKind the server does not serve.
import test from 'ava';
import { expectStatus, installCrd, suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';
import { oneVersionCrd } from '../helpers/crd.js';
import { VAP, binding, installPolicy, policy, scopedNamespace } from '../helpers/vap.js';

const server = useTestServer({ widgetsCrd: true });

const paramsCrd = (plural: string, kind: string, scope: 'Namespaced' | 'Cluster') =>
  oneVersionCrd({ group: 'params.example.com', plural, kind, scope, schema: { type: 'object', properties: { spec: { type: 'object', properties: { max: { type: 'integer' } } } } } });

test.before(async () => {
  await installCrd(server, paramsCrd('limits', 'Limit', 'Namespaced'));
  await installCrd(server, paramsCrd('globallimits', 'GlobalLimit', 'Cluster'));
});

const limit = (name: string, max: number, labels?: Record<string, string>) => ({
  apiVersion: 'params.example.com/v1',
  kind: 'Limit',
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: { max },
});

async function createLimit(ns: string, name: string, max: number, labels?: Record<string, string>) {
  const res = await server.request('POST', `/apis/params.example.com/v1/namespaces/${ns}/limits`, { body: limit(name, max, labels) });
  if (res.status !== 201) throw new Error(`limit: ${res.status} ${res.text}`);
}

const create = (ns: string, name: string, replicas: number) => server.request('POST', widgetsPath(ns), { body: widget(name, { spec: { replicas } }) });

const paramPolicy = (name: string, selector: Record<string, unknown>, kind = 'Limit') =>
  policy(name, selector, {
    paramKind: { apiVersion: 'params.example.com/v1', kind },
    validations: [{ expression: 'object.spec.replicas <= params.spec.max', messageExpression: "'at most ' + string(params.spec.max) + ' (' + params.metadata.name + ')'" }],
  });

test('paramRef.name: the param in the request namespace; missing with Deny is refused, with Allow skipped', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'byname');
  await createLimit(ns, 'limit', 3);
  await installPolicy(server, paramPolicy(`byname-${id}`, selector), binding(`byname-${id}`, `byname-${id}`, { paramRef: { name: 'limit', parameterNotFoundAction: 'Deny' } }), async () => (await create(ns, `probe-${suffix()}`, 4)).status === 422);
  expectStatus(t, await create(ns, 'four', 4), {
    code: 422,
    reason: 'Invalid',
    message: `widgets.example.com "four" is forbidden: ValidatingAdmissionPolicy 'byname-${id}' with binding 'byname-${id}' denied request: at most 3 (limit)`,
  });
  t.is((await create(ns, 'three', 3)).status, 201);

  // another namespace matched by the policy but without the param
  const other = await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: `byname-other-${id}`, labels: { 'vap-test': id } } } });
  t.is(other.status, 201);
  expectStatus(t, await create(`byname-other-${id}`, 'w', 1), {
    code: 422,
    reason: 'Invalid',
    message: `widgets.example.com "w" is forbidden: ValidatingAdmissionPolicy 'byname-${id}' with binding 'byname-${id}' denied request: failed to configure binding: no params found for policy binding with \`Deny\` parameterNotFoundAction`,
  });
  const patched = await server.request('PATCH', `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/byname-${id}`, {
    body: { spec: { paramRef: { name: 'limit', parameterNotFoundAction: 'Allow' } } },
    contentType: 'application/merge-patch+json',
  });
  t.is(patched.status, 200);
  await server.waitFor(async () => (await create(`byname-other-${id}`, `w-${suffix()}`, 100)).status === 201, 10_000, 'Allow in force');
});

test('paramRef.namespace and selector: each matching param is evaluated; a new param takes effect', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'bysel');
  const paramsNs = `params-${id}`;
  t.is((await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: paramsNs } } })).status, 201);
  await createLimit(paramsNs, 'loose', 10, { set: id });
  await installPolicy(
    server,
    paramPolicy(`bysel-${id}`, selector),
    binding(`bysel-${id}`, `bysel-${id}`, { paramRef: { namespace: paramsNs, selector: { matchLabels: { set: id } }, parameterNotFoundAction: 'Deny' } }),
    async () => (await create(ns, `probe-${suffix()}`, 11)).status === 422,
  );
  t.is((await create(ns, 'five', 5)).status, 201);
  await createLimit(paramsNs, 'strict', 4, { set: id });
  await createLimit(paramsNs, 'unrelated', 1);
  await server.waitFor(async () => (await create(ns, `probe-${suffix()}`, 5)).status === 422, 10_000, 'the strict param in force');
  expectStatus(t, await create(ns, 'again', 5), {
    code: 422,
    reason: 'Invalid',
    message: `widgets.example.com "again" is forbidden: ValidatingAdmissionPolicy 'bysel-${id}' with binding 'bysel-${id}' denied request: at most 4 (strict)`,
  });
});

test('a cluster-scoped paramKind; paramRef.namespace is refused for it', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'global');
  const g = await server.request('POST', '/apis/params.example.com/v1/globallimits', {
    body: { apiVersion: 'params.example.com/v1', kind: 'GlobalLimit', metadata: { name: `g-${id}` }, spec: { max: 2 } },
  });
  t.is(g.status, 201);
  await installPolicy(
    server,
    paramPolicy(`global-${id}`, selector, 'GlobalLimit'),
    binding(`global-${id}`, `global-${id}`, { paramRef: { name: `g-${id}`, parameterNotFoundAction: 'Deny' } }),
    async () => (await create(ns, `probe-${suffix()}`, 3)).status === 422,
  );
  t.is((await create(ns, 'two', 2)).status, 201);
  t.is(
    (await server.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', {
      body: binding(`global-ns-${id}`, `global-${id}`, { paramRef: { name: `g-${id}`, namespace: 'default', parameterNotFoundAction: 'Deny' } }),
    })).status,
    201,
  );
  await server.waitFor(async () => (await create(ns, `probe-${suffix()}`, 1)).status === 422, 10_000, 'second binding in force');
  expectStatus(t, await create(ns, 'one', 1), {
    code: 422,
    reason: 'Invalid',
    message: `widgets.example.com "one" is forbidden: ValidatingAdmissionPolicy 'global-${id}' with binding 'global-ns-${id}' denied request: failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped \`paramKind\``,
  });
});

test('a paramKind the server does not serve fails the policy per its failurePolicy', async (t) => {
  const { ns, id, selector } = await scopedNamespace(server, 'unknown');
  const p = policy(`unknown-${id}`, selector, { paramKind: { apiVersion: 'nowhere.example.com/v1', kind: 'Missing' }, validations: [{ expression: 'true' }] });
  await installPolicy(server, p, binding(`unknown-${id}`, `unknown-${id}`, { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } }), async () => (await create(ns, `probe-${suffix()}`, 1)).status === 422);
  expectStatus(t, await create(ns, 'w', 1), {
    code: 422,
    reason: 'Invalid',
    message: `widgets.example.com "w" is forbidden: ValidatingAdmissionPolicy 'unknown-${id}' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'nowhere.example.com/v1, Kind=Missing'`,
  });
  t.is((await server.request('DELETE', `${VAP}/unknown-${id}`)).status, 200);
});
