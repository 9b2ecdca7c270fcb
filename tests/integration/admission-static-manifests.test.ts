// Admission from files (kube's --admission-control-config-file with KEP-5793 staticManifestsDir): policies and webhook
// configurations loaded before the first request, invisible to the API, reloaded when their files change, the last
// good set kept (and reported by /readyz) while the files are invalid.
import test from 'ava';
import { mkdir, mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { expectStatus, startTestServer, type TestServer } from '../helpers/test-server.js';
import { allow, patch, startWebhookServer } from '../helpers/webhook-server.js';

const policiesPath = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const policyName = 'deny-prefix.static.k8s.io';
const bindingName = 'deny-prefix-binding.static.k8s.io';

/** A static policy and its binding refusing namespaces whose name starts with `prefix`. */
function denyPrefix(prefix: string): unknown[] {
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: policyName },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'] }] },
        validations: [{ expression: `!object.metadata.name.startsWith('${prefix}')`, message: `no namespace starts with ${prefix}` }],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: bindingName },
      spec: { policyName, validationActions: ['Deny'] },
    },
  ];
}

/** Writes a manifest file as kube advises (a temporary file renamed over it), so no reload sees half of it. */
async function writeManifest(dir: string, name: string, docs: unknown[] | string): Promise<void> {
  const text = typeof docs === 'string' ? docs : docs.map((d) => YAML.stringify(d)).join('---\n');
  await writeFile(join(dir, `.${name}.tmp`), text);
  await rename(join(dir, `.${name}.tmp`), join(dir, name));
}

/** A fresh directory holding an AdmissionConfiguration naming `plugin`'s static manifests directory (also fresh). */
async function admissionConfig(plugin: string, configKind: string): Promise<{ file: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'kapi-admission-'));
  const dir = join(root, 'manifests');
  await mkdir(dir);
  const file = join(root, 'admission.yaml');
  const configuration = { apiVersion: 'apiserver.config.k8s.io/v1', kind: configKind, staticManifestsDir: dir };
  await writeFile(file, YAML.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins: [{ name: plugin, configuration }] }));
  return { file, dir };
}

async function withPolicyServer(prefix: string, run: (server: TestServer, dir: string) => Promise<void>): Promise<void> {
  const { file, dir } = await admissionConfig('ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyConfiguration');
  await writeManifest(dir, 'policy.yaml', denyPrefix(prefix));
  const server = await startTestServer({ storage: 'memory', admissionControlConfigFile: file });
  try {
    await run(server, dir);
  } finally {
    await server.close();
  }
}

const createNamespace = (server: TestServer, name: string) => server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });

const denial = (name: string, prefix: string) =>
  `namespaces "${name}" is forbidden: ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}' denied request: no namespace starts with ${prefix}`;

/** Repeats `attempt` until it returns true (a reload is asynchronous); fails after 10 s. */
async function eventually(attempt: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await attempt()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test('a static ValidatingAdmissionPolicy refuses from the first request and is not part of the API', async (t) => {
  await withPolicyServer('blocked-', async (server) => {
    const refused = await createNamespace(server, 'blocked-first');
    expectStatus(t, refused, { code: 422, reason: 'Invalid', message: denial('blocked-first', 'blocked-') });
    t.is((await createNamespace(server, 'allowed-first')).status, 201);

    const list = await server.request('GET', policiesPath);
    t.is(list.status, 200);
    t.deepEqual(list.body.items, [], 'static policies are not listed');
    t.is((await server.request('GET', `${policiesPath}/${policyName}`)).status, 404);
    expectStatus(t, await server.request('DELETE', `${policiesPath}/${policyName}`), { code: 404, reason: 'NotFound' });
    expectStatus(t, await createNamespace(server, 'blocked-after-delete'), { code: 422, reason: 'Invalid' });
  });
});

test('admission objects named with the reserved .static.k8s.io suffix cannot be created through the API', async (t) => {
  await withPolicyServer('blocked-', async (server) => {
    const res = await server.request('POST', policiesPath, { body: denyPrefix('x')[0] });
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    t.like(res.body.details?.causes?.[0], {
      field: 'metadata.name',
      message: `Invalid value: "${policyName}": names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API`,
    });
  });
});

test('editing the manifest file changes admission without a restart', async (t) => {
  await withPolicyServer('old-', async (server, dir) => {
    expectStatus(t, await createNamespace(server, 'old-1'), { code: 422, reason: 'Invalid' });
    await writeManifest(dir, 'policy.yaml', denyPrefix('new-'));
    let n = 0;
    const followed = await eventually(async () => (await createNamespace(server, `new-${++n}`)).status === 422);
    t.true(followed, 'the edited policy is enforced');
    t.is((await createNamespace(server, 'old-2')).status, 201, 'the previous policy is gone');
  });
});

test('an invalid manifest keeps the last good set in force and fails the readiness check until fixed', async (t) => {
  await withPolicyServer('kept-', async (server, dir) => {
    t.is((await server.request('GET', '/readyz/admission-manifests')).text, 'ok');
    // a binding of a policy the directory does not hold
    await writeManifest(dir, 'policy.yaml', [denyPrefix('other-')[1]]);
    const reported = await eventually(async () => (await server.request('GET', '/readyz/admission-manifests')).status === 500);
    t.true(reported, 'the readiness check reports the bad files');
    const check = await server.request('GET', '/readyz/admission-manifests');
    t.regex(check.text, /ValidatingAdmissionPolicy static manifests in ".*" not loaded: binding "deny-prefix-binding\.static\.k8s\.io" references policy "deny-prefix\.static\.k8s\.io" which does not exist/);
    t.is((await server.request('GET', '/readyz')).status, 500);
    expectStatus(t, await createNamespace(server, 'kept-1'), { code: 422, reason: 'Invalid', message: denial('kept-1', 'kept-') });

    await writeManifest(dir, 'policy.yaml', 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: bad.static.k8s.io}\nspec: {validations: [{expression: "1 +"}]}\n');
    await new Promise((r) => setTimeout(r, 500));
    t.is((await server.request('GET', '/readyz/admission-manifests')).status, 500, 'a policy that does not validate is refused too');
    expectStatus(t, await createNamespace(server, 'kept-2'), { code: 422, reason: 'Invalid' });

    await writeManifest(dir, 'policy.yaml', denyPrefix('fixed-'));
    t.true(await eventually(async () => (await server.request('GET', '/readyz/admission-manifests')).text === 'ok'), 'fixed files clear the check');
    t.is((await createNamespace(server, 'kept-3')).status, 201);
    expectStatus(t, await createNamespace(server, 'fixed-1'), { code: 422, reason: 'Invalid' });
  });
});

test('a static validating webhook configuration is called, also on admission configuration requests', async (t) => {
  const hooks = await startWebhookServer();
  const { file, dir } = await admissionConfig('ValidatingAdmissionWebhook', 'WebhookAdmissionConfiguration');
  hooks.handle('/static', allow);
  const rules = [
    { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] },
    { operations: ['CREATE'], apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1'], resources: ['validatingwebhookconfigurations'] },
  ];
  await writeManifest(dir, 'hooks.json', [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'audit.static.k8s.io' },
      webhooks: [{ name: 'audit.static.k8s.io', clientConfig: { url: hooks.url('/static'), caBundle: hooks.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    },
  ]);
  const server = await startTestServer({ storage: 'memory', admissionControlConfigFile: file });
  try {
    t.is((await createNamespace(server, 'hooked')).status, 201);
    const [call] = hooks.requestsTo('/static');
    t.like(call?.body?.request, { operation: 'CREATE', name: 'hooked', resource: { group: '', version: 'v1', resource: 'namespaces' } });

    const vwc = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'api-made' }, webhooks: [] };
    t.is((await server.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { body: vwc })).status, 201);
    t.true(hooks.requestsTo('/static').some((r) => r.body?.request?.name === 'api-made'), 'static webhooks see admission configuration writes');
    const listed = await server.request('GET', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations');
    t.deepEqual(listed.body.items.map((i: any) => i.metadata.name), ['api-made']);
  } finally {
    await server.close();
    await hooks.close();
  }
});

test('a static mutating webhook configuration patches objects', async (t) => {
  const hooks = await startWebhookServer();
  const { file, dir } = await admissionConfig('MutatingAdmissionWebhook', 'WebhookAdmissionConfiguration');
  hooks.handle('/label', patch([{ op: 'add', path: '/metadata/labels/static-mutated', value: 'true' }]));
  const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }];
  const hook = { name: 'label.static.k8s.io', clientConfig: { url: hooks.url('/label'), caBundle: hooks.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] };
  await writeManifest(dir, 'hooks.yaml', [{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'label.static.k8s.io' }, webhooks: [hook] }]);
  const server = await startTestServer({ storage: 'memory', admissionControlConfigFile: file });
  try {
    const res = await createNamespace(server, 'mutated');
    t.is(res.status, 201, res.text);
    t.is(res.body.metadata.labels['static-mutated'], 'true');
    const listed = await server.request('GET', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations');
    t.deepEqual(listed.body.items, []);
  } finally {
    await server.close();
    await hooks.close();
  }
});

test('the server does not start on an invalid manifest or a plugin kapi does not configure', async (t) => {
  const { file, dir } = await admissionConfig('ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyConfiguration');
  await writeManifest(dir, 'policy.yaml', [{ ...(denyPrefix('x')[0] as object), metadata: { name: 'no-suffix' } }]);
  const bad = await t.throwsAsync(startTestServer({ storage: 'memory', admissionControlConfigFile: file }));
  t.regex(bad?.message ?? '', /admission plugin ValidatingAdmissionPolicy: loading static manifests from ".*": error loading .*policy\.yaml: "no-suffix" in file ".*" must have a name ending with "\.static\.k8s\.io"/);

  const other = join(dir, '..', 'other.yaml');
  await writeFile(other, YAML.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins: [{ name: 'EventRateLimit', path: 'limits.yaml' }] }));
  const unknown = await t.throwsAsync(startTestServer({ storage: 'memory', admissionControlConfigFile: other }));
  t.regex(unknown?.message ?? '', /admission control configuration ".*other\.yaml": admission plugin "EventRateLimit" takes no configuration in kapi/);
});

const mapsPath = '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies';
const mapbsPath = '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings';
const mapName = 'team-label.static.k8s.io';
const mapBindingName = 'team-label-binding.static.k8s.io';

/** A mutating policy on creates of `resources` (of `group`) setting labels (a CEL map), and its binding. */
function labelling(name: string, bindingName: string, labels: string, group = '', resources = ['namespaces']): unknown[] {
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE'], resources }] },
        reinvocationPolicy: 'Never',
        mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: `Object{metadata: Object.metadata{labels: ${labels}}}` } }],
      },
    },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: bindingName }, spec: { policyName: name } },
  ];
}

/** The static policy labelling new namespaces `team: <team>`. */
const teamLabel = (team: string) => labelling(mapName, mapBindingName, `{"team": "${team}"}`);

async function withMutatingPolicyServer(docs: unknown[], run: (server: TestServer, dir: string) => Promise<void>): Promise<void> {
  const { file, dir } = await admissionConfig('MutatingAdmissionPolicy', 'MutatingAdmissionPolicyConfiguration');
  await writeManifest(dir, 'policy.yaml', docs);
  const server = await startTestServer({ storage: 'memory', admissionControlConfigFile: file });
  try {
    await run(server, dir);
  } finally {
    await server.close();
  }
}

const teamOf = async (server: TestServer, name: string): Promise<string | undefined> => {
  const res = await createNamespace(server, name);
  if (res.status !== 201) throw new Error(`namespace ${name}: ${res.status} ${res.text}`);
  return res.body.metadata.labels?.team;
};

test('a static MutatingAdmissionPolicy mutates from the first request and is not part of the API', async (t) => {
  await withMutatingPolicyServer(teamLabel('platform'), async (server) => {
    t.is(await teamOf(server, 'first'), 'platform');

    for (const path of [mapsPath, mapbsPath]) t.deepEqual((await server.request('GET', path)).body.items, [], `nothing listed at ${path}`);
    expectStatus(t, await server.request('GET', `${mapsPath}/${mapName}`), { code: 404, reason: 'NotFound' });
    expectStatus(t, await server.request('DELETE', `${mapsPath}/${mapName}`), {
      code: 404,
      reason: 'NotFound',
      message: `mutatingadmissionpolicies.admissionregistration.k8s.io "${mapName}" not found`,
    });
    expectStatus(t, await server.request('DELETE', `${mapbsPath}/${mapBindingName}`), { code: 404, reason: 'NotFound' });
    t.is(await teamOf(server, 'after-delete'), 'platform');

    const [policy, binding] = teamLabel('x');
    const reserved = `names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API`;
    for (const [path, body, name] of [[mapsPath, policy, mapName], [mapbsPath, binding, mapBindingName]] as const) {
      const res = await server.request('POST', path, { body });
      expectStatus(t, res, { code: 422, reason: 'Invalid' });
      t.like(res.body.details?.causes?.[0], { field: 'metadata.name', message: `Invalid value: "${name}": ${reserved}` });
    }
  });
});

test('editing a static MutatingAdmissionPolicy file changes the mutation without a restart', async (t) => {
  await withMutatingPolicyServer(teamLabel('blue'), async (server, dir) => {
    t.is(await teamOf(server, 'before-edit'), 'blue');
    await writeManifest(dir, 'policy.yaml', teamLabel('green'));
    let n = 0;
    t.true(await eventually(async () => (await teamOf(server, `edited-${++n}`)) === 'green'), 'the edited mutation is in force');
  });
});

test('an invalid mutating policy manifest keeps the last good set in force and fails the readiness check until fixed', async (t) => {
  await withMutatingPolicyServer(teamLabel('kept'), async (server, dir) => {
    t.is((await server.request('GET', '/readyz/admission-manifests')).text, 'ok');
    const [policy, binding] = teamLabel('changed') as [{ spec: object }, unknown];
    await writeManifest(dir, 'policy.yaml', [{ ...policy, spec: { ...policy.spec, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } }, binding]);
    t.true(await eventually(async () => (await server.request('GET', '/readyz/admission-manifests')).status === 500), 'the readiness check reports the bad files');
    const check = await server.request('GET', '/readyz/admission-manifests');
    t.regex(check.text, /MutatingAdmissionPolicy static manifests in ".*" not loaded: error loading .*policy\.yaml: MutatingAdmissionPolicy "team-label\.static\.k8s\.io": spec\.paramKind is not supported for static manifests/);
    t.is(await teamOf(server, 'kept-1'), 'kept', 'the previous set stays in force');

    await writeManifest(dir, 'policy.yaml', teamLabel('fixed'));
    t.true(await eventually(async () => (await server.request('GET', '/readyz/admission-manifests')).text === 'ok'), 'fixed files clear the check');
    t.is(await teamOf(server, 'fixed-1'), 'fixed');
  });
});

test('static mutating policies run before those stored through the API, and also on writes of mutating policies', async (t) => {
  const guard = labelling('guard.static.k8s.io', 'guard-binding.static.k8s.io', '{"guarded": "true"}', 'admissionregistration.k8s.io', ['mutatingadmissionpolicies']);
  await withMutatingPolicyServer([...teamLabel('platform'), ...guard], async (server) => {
    const seen = `{"seen-team": has(object.metadata.labels) && "team" in object.metadata.labels ? object.metadata.labels["team"] : "none"}`;
    const [policy, binding] = labelling('seen-team', 'seen-team', seen);
    const created = await server.request('POST', mapsPath, { body: policy });
    t.is(created.status, 201, created.text);
    t.is(created.body.metadata.labels?.guarded, 'true', 'the static policy mutated the API write of a policy');
    t.is((await server.request('POST', mapbsPath, { body: binding })).status, 201);

    let n = 0;
    let labels: Record<string, string> = {};
    const both = await eventually(async () => {
      labels = (await createNamespace(server, `both-${++n}`)).body.metadata.labels ?? {};
      return 'seen-team' in labels;
    });
    t.true(both, 'the stored policy is in force');
    t.like(labels, { team: 'platform', 'seen-team': 'platform' }, 'the stored policy saw the static mutation');
  });
});
