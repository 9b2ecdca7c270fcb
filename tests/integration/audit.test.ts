// Audit events over real HTTP: a scripted series of requests logged with kube's stages, levels, users and Audit-Ids;
// rules at None, per-level request and response objects, omitManagedFields, omitStages, authorization and admission
// annotations, failed authentication, a 403 and a kapi bug (Panic).
import test from 'ava';
import http from 'node:http';
import {
  addAuditAnnotation,
  adminUser,
  alwaysAllow,
  auditModule,
  createApiServer,
  defaultModules,
  defineModule,
  staticTokenAuth,
  Tokens,
  type AuditBackend,
  type AuditEvent,
  type AuditPolicy,
  type Authorizer,
} from '../../index.js';

const events: AuditEvent[] = [];
const recorder: AuditBackend = { name: 'recorder', processEvent: (e) => void events.push(e) };

const policy: AuditPolicy = {
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  rules: [
    { level: 'None', userGroups: ['quiet'] },
    { level: 'None', resources: [{ group: 'coordination.k8s.io' }] },
    { level: 'RequestResponse', omitManagedFields: true, resources: [{ group: '', resources: ['configmaps'] }] },
    { level: 'RequestResponse', resources: [{ group: '', resources: ['secrets'] }] },
    { level: 'Request', resources: [{ group: '', resources: ['serviceaccounts'] }] },
    { level: 'Metadata', omitStages: ['RequestReceived'], resources: [{ group: '', resources: ['namespaces'] }] },
    { level: 'Metadata' },
  ],
};

/** eve may read, not write; quiet-carl is in the group the policy does not audit. */
const eve = { username: 'eve', groups: ['system:authenticated'] };
const carl = { username: 'quiet-carl', groups: ['quiet', 'system:authenticated'] };
const readOnlyEve: Authorizer = {
  name: 'read-only-eve',
  async authorize({ user, verb }) {
    if (user.username !== 'eve' || ['get', 'list', 'watch'].includes(verb)) return { decision: 'no-opinion' };
    return { decision: 'deny', reason: 'eve only reads' };
  },
};

/** Annotates configmap writes, and fails as a bug would for a configmap named "boom". */
const testAdmission = defineModule('audit-test-admission', (c) =>
  c.register(Tokens.AdmissionPlugin, {
    useValue: {
      name: 'AuditAnnotator',
      operations: ['CREATE'],
      rules: [{ apiGroups: [''], resources: ['configmaps'] }],
      sideEffects: 'None',
      validate(attrs) {
        addAuditAnnotation(attrs, 'test.kapi.io/seen', attrs.name);
        if (attrs.name === 'boom') (undefined as unknown as { crash(): void }).crash();
      },
    },
  }),
);

const server = createApiServer({
  modules: [
    ...defaultModules({
      storage: 'memory',
      authModules: [
        staticTokenAuth([
          { token: 'admin-token', user: adminUser },
          { token: 'eve-token', user: eve },
          { token: 'carl-token', user: carl },
        ]),
        defineModule('read-only-eve', (c) => c.register(Tokens.Authorizer, { useValue: readOnlyEve })),
        alwaysAllow(),
      ],
    }),
    testAdmission,
    auditModule({ policy, backends: [recorder] }),
  ],
});
let port = 0;

test.before(async () => {
  port = (await server.listen({ port: 0, host: '127.0.0.1' })).port;
});
test.after.always(() => server.close());

interface Answer {
  status: number;
  auditId: string;
  body: any;
}

function send(method: string, path: string, opts: { token?: string | null; body?: unknown; contentType?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? 'admin-token' : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    if (payload) headers['content-type'] = opts.contentType ?? 'application/json';
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, auditId: String(res.headers['audit-id']), body: text.startsWith('{') ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const of = (auditId: string) => events.filter((e) => e.auditID === auditId);
const stages = (auditId: string) => of(auditId).map((e) => e.stage);
const last = (auditId: string) => of(auditId).at(-1)!;

async function eventually<T>(fn: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const adminAudit = { username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] };
const allowed = { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' };

test('a scripted series of requests is logged with kube stages, verbs, levels, users and the Audit-Id answered', async (t) => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'series' }, data: { a: '1' } };
  const created = await send('POST', '/api/v1/namespaces/default/configmaps', { body: cm, headers: { 'user-agent': 'audit-test/1.0' } });
  t.is(created.status, 201);
  t.deepEqual(stages(created.auditId), ['RequestReceived', 'ResponseComplete']);
  const [received, complete] = of(created.auditId);
  t.like(received, { kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', verb: 'create', requestURI: '/api/v1/namespaces/default/configmaps', user: adminAudit, userAgent: 'audit-test/1.0', sourceIPs: ['127.0.0.1'] });
  t.is(received!.requestObject, undefined);
  t.is(received!.responseStatus, undefined);
  t.like(complete, {
    level: 'RequestResponse',
    verb: 'create',
    objectRef: { resource: 'configmaps', namespace: 'default', name: 'series', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 201 },
    requestObject: cm,
    annotations: { ...allowed, 'test.kapi.io/seen': 'series' },
  });
  t.is((complete!.responseObject as any).metadata.uid, created.body.metadata.uid);
  t.is(complete!.requestReceivedTimestamp, received!.requestReceivedTimestamp);
  t.regex(complete!.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  t.true(complete!.stageTimestamp >= complete!.requestReceivedTimestamp);

  const got = await send('GET', '/api/v1/namespaces/default/configmaps/series');
  t.like(last(got.auditId), { stage: 'ResponseComplete', verb: 'get', responseStatus: { code: 200 }, objectRef: { name: 'series' } });
  const listed = await send('GET', '/api/v1/namespaces/default/configmaps?limit=10');
  t.like(last(listed.auditId), { stage: 'ResponseComplete', verb: 'list', requestURI: '/api/v1/namespaces/default/configmaps?limit=10', responseObject: { kind: 'ConfigMapList' } });
  t.is(last(listed.auditId).objectRef!.name, undefined);

  const watchId = await new Promise<string>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v1/namespaces/default/configmaps?watch=1', headers: { authorization: 'Bearer admin-token' }, agent: false }, (res) => {
      res.once('data', () => {
        resolve(String(res.headers['audit-id']));
        req.destroy();
      });
    });
    req.on('error', () => {});
    req.on('timeout', reject);
  });
  await eventually(() => stages(watchId).includes('ResponseComplete'), 'the end of the watch');
  t.deepEqual(stages(watchId), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  t.like(of(watchId)[1], { verb: 'watch', responseStatus: { metadata: {}, code: 200 } });

  const patch = { data: { b: '2' } };
  const patched = await send('PATCH', '/api/v1/namespaces/default/configmaps/series', { body: patch, contentType: 'application/merge-patch+json' });
  t.is(patched.status, 200);
  t.like(last(patched.auditId), { verb: 'patch', requestObject: patch, responseStatus: { code: 200 } });
  const deleted = await send('DELETE', '/api/v1/namespaces/default/configmaps/series');
  t.like(last(deleted.auditId), { verb: 'delete', responseStatus: { code: 200 } });

  const missing = await send('GET', '/api/v1/namespaces/default/configmaps/nope');
  t.is(missing.status, 404);
  t.deepEqual(last(missing.auditId).responseStatus, {
    metadata: {},
    status: 'Failure',
    message: 'configmaps "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', kind: 'configmaps' },
    code: 404,
  });

  const forbidden = await send('POST', '/api/v1/namespaces/default/configmaps', { token: 'eve-token', body: { ...cm, metadata: { name: 'eves' } } });
  t.is(forbidden.status, 403);
  t.like(last(forbidden.auditId), {
    stage: 'ResponseComplete',
    verb: 'create',
    user: { username: 'eve', groups: ['system:authenticated'] },
    annotations: { 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': 'eve only reads' },
    responseStatus: { status: 'Failure', reason: 'Forbidden', code: 403 },
  });

  const discovery = await send('GET', '/apis');
  t.deepEqual(stages(discovery.auditId), ['RequestReceived', 'ResponseComplete']);
  const nonResource = last(discovery.auditId);
  t.like(nonResource, { level: 'Metadata', verb: 'get', requestURI: '/apis', responseStatus: { metadata: {}, code: 200 }, annotations: allowed });
  t.is(nonResource.objectRef, undefined);
  t.is(nonResource.responseObject, undefined);
});

test('a request refused at authentication is one ResponseStarted event naming the credentials tried, for no user', async (t) => {
  const refused = await send('GET', '/api/v1/namespaces/default/configmaps', { token: 'forged' });
  t.is(refused.status, 401);
  t.deepEqual(stages(refused.auditId), ['ResponseStarted']);
  t.like(last(refused.auditId), { level: 'RequestResponse', verb: 'list', user: {}, responseStatus: { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 } });
  t.deepEqual(last(refused.auditId).user, {});
  // without credentials the request is system:anonymous's, which this server's AlwaysAllow lets through (as kube's)
  const anonymous = await send('GET', '/api/v1/namespaces', { token: null });
  t.like(last(anonymous.auditId), { user: { username: 'system:anonymous' }, responseStatus: { metadata: {}, code: 200 } });
});

test('a rule at None logs nothing for its group of users, or for its API group', async (t) => {
  const quiet = await send('GET', '/api/v1/namespaces/default/configmaps', { token: 'carl-token' });
  t.is(quiet.status, 200);
  const lease = await send('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases');
  t.is(lease.status, 200);
  const loud = await send('GET', '/api/v1/namespaces/default/configmaps', { token: 'eve-token' });
  t.is(loud.status, 200);
  t.deepEqual(of(quiet.auditId), []);
  t.deepEqual(of(lease.auditId), []);
  t.is(of(loud.auditId).length, 2);
});

test('request and response objects by level, managedFields omitted only where the rule says', async (t) => {
  const sa = await send('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'levels' } } });
  t.is(sa.status, 201);
  t.like(last(sa.auditId), { level: 'Request', requestObject: { metadata: { name: 'levels' } } });
  t.is(last(sa.auditId).responseObject, undefined);

  const ns = await send('GET', '/api/v1/namespaces/default');
  t.deepEqual(stages(ns.auditId), ['ResponseComplete'], 'omitStages: RequestReceived');
  t.like(last(ns.auditId), { level: 'Metadata', objectRef: { resource: 'namespaces', name: 'default' } });
  t.is(last(ns.auditId).requestObject, undefined);
  t.is(last(ns.auditId).responseObject, undefined);

  const secret = await send('POST', '/api/v1/namespaces/default/secrets', { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'levels' }, stringData: { k: 'v' } } });
  t.is(secret.status, 201);
  t.truthy((last(secret.auditId).responseObject as any).metadata.managedFields, 'kept without omitManagedFields');
  const cm = await send('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'levels' }, data: { k: 'v' } } });
  t.truthy(cm.body.metadata.managedFields);
  const logged = last(cm.auditId).responseObject as any;
  t.is(logged.metadata.name, 'levels');
  t.false('managedFields' in logged.metadata);
  const list = await send('GET', '/api/v1/namespaces/default/configmaps');
  const items = (last(list.auditId).responseObject as any).items as any[];
  t.true(items.length > 0);
  t.true(items.every((i) => !('managedFields' in i.metadata)));
});

test('an error that is no ApiError ends the request at stage Panic', async (t) => {
  const boom = await send('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'boom' } } });
  t.is(boom.status, 500);
  t.deepEqual(stages(boom.auditId), ['RequestReceived', 'Panic']);
  const panic = last(boom.auditId).responseStatus!;
  t.like(panic, { metadata: {}, status: 'Failure', reason: 'InternalError', code: 500 });
  t.regex(panic.message!, /^APIServer panic'd: Cannot read properties of undefined/);
});

test("a ValidatingAdmissionPolicy's auditAnnotations and Audit action reach the request's event", async (t) => {
  t.is((await send('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vap', labels: { 'audit-vap': 'yes' } } } })).status, 201);
  const rules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }];
  const vap = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'audit-vap' },
    spec: {
      matchConstraints: { namespaceSelector: { matchLabels: { 'audit-vap': 'yes' } }, resourceRules: rules },
      validations: [{ expression: "object.metadata.name != 'flagged'", message: 'flagged name' }],
      auditAnnotations: [{ key: 'name', valueExpression: "'name: ' + object.metadata.name" }],
    },
  };
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'audit-vap' }, spec: { policyName: 'audit-vap', validationActions: ['Audit'] } };
  t.is((await send('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', { body: vap })).status, 201);
  t.is((await send('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', { body: binding })).status, 201);
  const create = (name: string) => send('POST', '/api/v1/namespaces/vap/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } });
  let probes = 0;
  await eventually(async () => {
    const probe = await create(`probe-${probes++}`);
    return last(probe.auditId).annotations?.['audit-vap/name'];
  }, 'the policy to be in force');

  const flagged = await create('flagged');
  t.is(flagged.status, 201);
  t.like(last(flagged.auditId).annotations, {
    ...allowed,
    'test.kapi.io/seen': 'flagged',
    'audit-vap/name': 'name: flagged',
    'validation.policy.admission.k8s.io/validation_failure': JSON.stringify([
      { message: 'flagged name', policy: 'audit-vap', binding: 'audit-vap', expressionIndex: 0, validationActions: ['Audit'] },
    ]),
  });
});
