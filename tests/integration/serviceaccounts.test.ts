// ServiceAccounts: the default account of every namespace, validation, the table, the serviceaccounts/token
// TokenRequest subresource, the token authenticator and OpenID discovery, over HTTPS as clients see them.
import test from 'ava';
import { createPrivateKey } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import type { AdmissionPlugin, Module, UserInfo } from '../../index.js';
import { Tokens } from '../../index.js';
import { createNamespace, defaultIssuer, expectStatus, startTestServer, suffix, useTestServer, type TestServer } from '../helpers/test-server.js';

/** Who created each ServiceAccount, by name: how a test sees the user a token authenticates as. */
const creators = new Map<string, UserInfo>();
const whoAmI: AdmissionPlugin = {
  name: 'test-who-am-i',
  operations: ['CREATE'],
  rules: [{ apiGroups: [''], resources: ['serviceaccounts'] }],
  sideEffects: 'None',
  validate: (attrs) => void creators.set(attrs.name, attrs.userInfo),
};
const whoAmIModule: Module = (c) => c.register(Tokens.AdmissionPlugin, { useValue: whoAmI });

const server = useTestServer({ serviceAccountTokens: {}, modules: [whoAmIModule] });

// The accounts these tests authenticate as may create ServiceAccounts (RBAC: `edit` for every account).
test.before(async () => {
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'serviceaccounts-edit' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:serviceaccounts' }],
  };
  const res = await server.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { body: binding });
  if (res.status !== 201) throw new Error(res.text);
});

const accounts = (ns: string, name = '') => `/api/v1/namespaces/${ns}/serviceaccounts${name ? `/${name}` : ''}`;
const tokenPath = (ns: string, name: string) => `${accounts(ns, name)}/token`;
const tokenRequest = (spec: Record<string, unknown> = {}) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });

async function createAccount(s: TestServer, ns: string, name: string, token?: string) {
  const res = await s.request('POST', accounts(ns), { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }, ...(token ? { token } : {}) });
  return res;
}

/** A new account in a new namespace and a token for it (default audiences and expiration). */
async function accountWithToken(spec: Record<string, unknown> = {}) {
  const ns = await createNamespace(server, 'sa');
  const name = `robot-${suffix()}`;
  const created = await createAccount(server, ns, name);
  if (created.status !== 201) throw new Error(created.text);
  const res = await server.request('POST', tokenPath(ns, name), { body: tokenRequest(spec) });
  if (res.status !== 201) throw new Error(res.text);
  return { ns, name, uid: created.body.metadata.uid as string, token: res.body.status.token as string, answer: res.body };
}

/** Whether a token authenticates: the status of creating a ServiceAccount with it (and the user it was created as). */
async function createAs(token: string, ns: string) {
  const name = `whoami-${suffix()}`;
  const res = await createAccount(server, ns, name, token);
  return { status: res.status, res, user: creators.get(name) };
}

test('every namespace has a default ServiceAccount, created again when deleted', async (t) => {
  const res = await server.waitFor(async () => {
    const r = await server.request('GET', accounts('default', 'default'));
    return r.status === 200 ? r : undefined;
  }, 10_000, 'default/default');
  t.like(res.body, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  const ns = await createNamespace(server, 'sa-default');
  const first = await server.waitFor(async () => {
    const r = await server.request('GET', accounts(ns, 'default'));
    return r.status === 200 ? r : undefined;
  }, 10_000, `${ns}/default`);
  t.is((await server.request('DELETE', accounts(ns, 'default'))).status, 200);
  const again = await server.waitFor(async () => {
    const r = await server.request('GET', accounts(ns, 'default'));
    return r.status === 200 && r.body.metadata.uid !== first.body.metadata.uid ? r : undefined;
  }, 10_000, `${ns}/default created again`);
  t.not(again.body.metadata.uid, first.body.metadata.uid);
});

test('ServiceAccount validation and decoding answer with kube texts; secrets keep only their names', async (t) => {
  const ns = await createNamespace(server, 'sa-valid');
  const bad = await createAccount(server, ns, 'Bad_Name');
  expectStatus(t, bad, {
    code: 422,
    reason: 'Invalid',
    message:
      `ServiceAccount "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case ` +
      `alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is ` +
      `'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  });
  const wrongType = await server.request('POST', accounts(ns), {
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'typed' }, automountServiceAccountToken: 'yes' },
  });
  expectStatus(t, wrongType, {
    code: 400,
    reason: 'BadRequest',
    message:
      'ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal string into Go struct field ServiceAccount.automountServiceAccountToken of type bool',
  });
  const withSecrets = await server.request('POST', accounts(ns), {
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' }, secrets: [{ name: 's1', kind: 'Secret', uid: 'x' }], imagePullSecrets: [{ name: 'pull' }] },
  });
  t.is(withSecrets.status, 201, withSecrets.text);
  t.deepEqual(withSecrets.body.secrets, [{ name: 's1' }]);
  t.deepEqual(withSecrets.body.imagePullSecrets, [{ name: 'pull' }]);
});

test('the ServiceAccount table has NAME, SECRETS and AGE', async (t) => {
  const ns = await createNamespace(server, 'sa-table');
  await server.request('POST', accounts(ns), { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'two' }, secrets: [{ name: 'a' }, { name: 'b' }] } });
  const res = await server.request('GET', accounts(ns, 'two'), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.columnDefinitions.map((c: { name: string; type: string }) => `${c.name}:${c.type}`), ['Name:string', 'Secrets:string', 'Age:string']);
  t.deepEqual(res.body.rows[0].cells.slice(0, 2), ['two', 2]);
});

test('a TokenRequest is answered with kube defaults: the API audiences, one hour, a signed token with kube claims', async (t) => {
  const before = Math.floor(Date.now() / 1000);
  const { ns, name, uid, token, answer } = await accountWithToken();
  t.like(answer, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name, namespace: ns } });
  t.deepEqual(answer.spec, { audiences: [defaultIssuer], expirationSeconds: 3600, boundObjectRef: null });
  const created = Date.parse(answer.metadata.creationTimestamp) / 1000;
  t.is(Date.parse(answer.status.expirationTimestamp) / 1000, created + 3600);
  const header = decodeProtectedHeader(token);
  t.is(header.alg, 'RS256');
  t.regex(header.kid ?? '', /^[A-Za-z0-9_-]{43}$/);
  const claims = decodeJwt(token);
  t.deepEqual(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  t.like(claims, { aud: [defaultIssuer], iss: defaultIssuer, sub: `system:serviceaccount:${ns}:${name}`, exp: created + 3600, iat: created, nbf: created });
  t.true(claims.iat! >= before);
  t.deepEqual(claims['kubernetes.io'], { namespace: ns, serviceaccount: { name, uid } });
  t.regex(claims.jti ?? '', /^[0-9a-f-]{36}$/);
});

test('TokenRequest bad input is a 4xx with kube texts', async (t) => {
  const ns = await createNamespace(server, 'sa-bad');
  const name = 'robot';
  t.is((await createAccount(server, ns, name)).status, 201);
  const post = (body: unknown) => server.request('POST', tokenPath(ns, name), { body });
  expectStatus(t, await post(tokenRequest({ expirationSeconds: 599 })), {
    code: 422,
    reason: 'Invalid',
    message: 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
  });
  expectStatus(t, await post(tokenRequest({ expirationSeconds: 0 })), { code: 422, reason: 'Invalid' });
  expectStatus(t, await post(tokenRequest({ expirationSeconds: 2 ** 32 + 1 })), {
    code: 422,
    reason: 'Invalid',
    message: `TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: ${2 ** 32 + 1}: may not specify a duration larger than 2^32 seconds`,
  });
  t.is((await post(tokenRequest({ expirationSeconds: 2 ** 32 }))).status, 201);
  t.is((await post(tokenRequest({ expirationSeconds: 600 }))).status, 201);
  expectStatus(t, await post(tokenRequest({ expirationSeconds: 'long' })), {
    code: 400,
    reason: 'BadRequest',
    message:
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64',
  });
  expectStatus(t, await post({ ...tokenRequest(), metadata: { name: 'other' } }), {
    code: 422,
    reason: 'Invalid',
    message: 'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
  });
  expectStatus(t, await post({ ...tokenRequest(), metadata: { namespace: 'elsewhere' } }), {
    code: 422,
    reason: 'Invalid',
    message: 'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.namespace: Invalid value: "elsewhere": must match the service account namespace if specified',
  });
  expectStatus(t, await server.request('POST', tokenPath(ns, 'nobody'), { body: tokenRequest() }), {
    code: 404,
    reason: 'NotFound',
    message: 'serviceaccounts "nobody" not found',
  });
  expectStatus(t, await post(tokenRequest({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p' } })), {
    code: 400,
    reason: 'BadRequest',
    message: 'cannot bind token to object of type /v1, Kind=Pod',
  });
  expectStatus(t, await post(tokenRequest({ boundObjectRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' } })), {
    code: 400,
    reason: 'BadRequest',
    message: 'cannot bind token to object of type apps/v1, Kind=Deployment',
  });
  expectStatus(t, await post({ apiVersion: 'v1', kind: 'ServiceAccount' }), { code: 400, reason: 'BadRequest' });
  expectStatus(t, await server.request('GET', tokenPath(ns, name)), { code: 405, reason: 'MethodNotAllowed' });
  expectStatus(t, await server.request('PUT', tokenPath(ns, name), { body: tokenRequest() }), { code: 405, reason: 'MethodNotAllowed' });
});

test('a token authenticates as its ServiceAccount, with kube groups, uid and credential id', async (t) => {
  const { ns, name, uid, token } = await accountWithToken();
  const { status, user, res } = await createAs(token, ns);
  t.is(status, 201, res.text);
  t.deepEqual(user, {
    username: `system:serviceaccount:${ns}:${name}`,
    uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${decodeJwt(token).jti}`] },
  });
  // the admin token still authenticates beside it, and a bearer that is neither is refused
  t.is((await server.request('GET', '/api/v1/namespaces')).status, 200);
  expectStatus(t, await server.request('GET', '/api/v1/namespaces', { token: 'not-a-token' }), { code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
});

test('a token is refused once its ServiceAccount is deleted, also when one of the same name is created again', async (t) => {
  const { ns, name, token } = await accountWithToken();
  t.is((await createAs(token, ns)).status, 201);
  t.is((await server.request('DELETE', accounts(ns, name))).status, 200);
  expectStatus(t, (await createAs(token, ns)).res, { code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
  t.is((await createAccount(server, ns, name)).status, 201);
  expectStatus(t, (await createAs(token, ns)).res, { code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
});

test('a token for another audience is refused; one naming the API audience among others is accepted', async (t) => {
  const other = await accountWithToken({ audiences: ['https://vault.example.com'] });
  expectStatus(t, (await createAs(other.token, other.ns)).res, { code: 401, reason: 'Unauthorized' });
  const both = await accountWithToken({ audiences: ['https://vault.example.com', defaultIssuer] });
  t.deepEqual(both.answer.spec.audiences, ['https://vault.example.com', defaultIssuer]);
  t.is((await createAs(both.token, both.ns)).status, 201);
});

test('an expired token is refused (beyond kube one-minute leeway); the same claims unexpired are accepted', async (t) => {
  const { ns, token } = await accountWithToken();
  const key = createPrivateKey(await readFile(join(server.dataDir, 'pki', 'sa.key'), 'utf8'));
  const { kid } = decodeProtectedHeader(token);
  const now = Math.floor(Date.now() / 1000);
  const resign = (exp: number) => new SignJWT({ ...decodeJwt(token), iat: exp - 3600, nbf: exp - 3600, exp }).setProtectedHeader({ alg: 'RS256', kid: kid! }).sign(key);
  expectStatus(t, (await createAs(await resign(now - 120), ns)).res, { code: 401, reason: 'Unauthorized' });
  t.is((await createAs(await resign(now + 600), ns)).status, 201);
  // signed by another key with the same key id: refused
  const { generateKeyPairSync } = await import('node:crypto');
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const forged = await new SignJWT({ ...decodeJwt(token) }).setProtectedHeader({ alg: 'RS256', kid: kid! }).sign(stranger);
  expectStatus(t, (await createAs(forged, ns)).res, { code: 401, reason: 'Unauthorized' });
});

test('the signing key is kept in the data directory, readable by its owner only', async (t) => {
  const mode = (await stat(join(server.dataDir, 'pki', 'sa.key'))).mode & 0o777;
  t.is(mode, 0o600);
});

test('OpenID discovery: the configuration and the key set, with which a relying party verifies a token', async (t) => {
  const conf = await server.request('GET', '/.well-known/openid-configuration');
  t.is(conf.status, 200);
  t.is(conf.headers['content-type'], 'application/json');
  t.is(conf.headers['cache-control'], 'public, max-age=3600');
  const port = new URL(server.url).port;
  t.deepEqual(conf.body, {
    issuer: defaultIssuer,
    jwks_uri: `https://127.0.0.1:${port}/openid/v1/jwks`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  });
  const jwks = await server.request('GET', '/openid/v1/jwks');
  t.is(jwks.status, 200);
  t.is(jwks.headers['content-type'], 'application/jwk-set+json');
  t.is(jwks.headers['cache-control'], 'public, max-age=3600');
  const set = JSON.parse(jwks.text) as { keys: Record<string, string>[] };
  t.is(set.keys.length, 1);
  t.deepEqual(Object.keys(set.keys[0]!), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
  t.like(set.keys[0], { use: 'sig', kty: 'RSA', alg: 'RS256', e: 'AQAB' });
  // as an external consumer: the token's key found by kid in the published set, issuer and audience checked
  const { ns, name, token } = await accountWithToken({ audiences: ['https://relying-party.example.com'] });
  t.is(decodeProtectedHeader(token).kid, set.keys[0]!.kid);
  const { payload } = await jwtVerify(token, createLocalJWKSet(set as never), { issuer: conf.body.issuer, audience: 'https://relying-party.example.com' });
  t.is(payload.sub, `system:serviceaccount:${ns}:${name}`);
});

test('--service-account-max-token-expiration shortens longer requests with kube warning', async (t) => {
  const capped = await startTestServer({ serviceAccountTokens: { maxExpirationSeconds: 7200 } });
  try {
    t.is((await createAccount(capped, 'default', 'capped')).status, 201);
    const res = await capped.request('POST', tokenPath('default', 'capped'), { body: tokenRequest({ expirationSeconds: 86400 }) });
    t.is(res.status, 201, res.text);
    t.is(res.body.spec.expirationSeconds, 7200);
    t.is(res.headers.warning, '299 - "requested expiration of 86400 seconds shortened to 7200 seconds"');
    const claims = decodeJwt(res.body.status.token);
    t.is(claims.exp! - claims.iat!, 7200);
  } finally {
    await capped.close();
  }
});
