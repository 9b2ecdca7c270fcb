import 'reflect-metadata';
import test from 'ava';
import { container } from 'tsyringe';
import { ApiError } from '../../../../core/contracts/api-error.js';
import { authenticateWithAll, CredentialsRejected } from '../../../../core/contracts/authenticator.js';
import { Tokens } from '../../../../core/contracts/tokens.js';
import { adminUser, AlwaysAllowAuthorizer, alwaysAllow, StaticTokenAuthenticator, staticTokenAuth } from '../../../../plugins/auth/index.js';

const bob = { username: 'bob', groups: ['system:authenticated'] };
const authenticator = new StaticTokenAuthenticator([
  { token: 'admin-secret', user: adminUser },
  { token: 'bob-secret', user: bob },
]);

test('a known bearer token authenticates as its user', async (t) => {
  t.deepEqual(await authenticator.authenticate({ headers: { authorization: 'Bearer admin-secret' } }), adminUser);
  t.deepEqual(await authenticator.authenticate({ headers: { authorization: 'bearer bob-secret' } }), bob);
});

test('an unknown bearer token is left to other authenticators, and is 401 when none knows it (kube\'s bearer token authenticator)', async (t) => {
  for (const authorization of ['Bearer admin-secreT', 'Bearer admin-secret-and-more', 'Bearer x']) {
    t.is(await authenticator.authenticate({ headers: { authorization } }), null, authorization);
    const err = await t.throwsAsync(authenticateWithAll([authenticator], { headers: { authorization } }), { instanceOf: ApiError });
    t.is(err?.code, 401);
    t.is(err?.reason, 'Unauthorized');
  }
  t.is(await authenticateWithAll([authenticator], { headers: { authorization: 'Bearer' } }), null, 'no token: no credentials');
});

test('the union: a refusal does not stop a later authenticator; accepted users are in system:authenticated once', async (t) => {
  const refusing = { name: 'refusing', authenticate: async () => Promise.reject(new CredentialsRejected('token has expired')) };
  t.deepEqual(await authenticateWithAll([refusing, authenticator], { headers: { authorization: 'Bearer bob-secret' } }), bob);
  const carol = new StaticTokenAuthenticator([{ token: 'c', user: { username: 'carol', groups: ['devs'] } }]);
  t.deepEqual(await authenticateWithAll([carol], { headers: { authorization: 'Bearer c' } }), { username: 'carol', groups: ['devs', 'system:authenticated'] });
  const err = await t.throwsAsync(authenticateWithAll([refusing, authenticator], { headers: { authorization: 'Bearer nope' } }), { instanceOf: CredentialsRejected });
  t.is(err?.why, 'token has expired');
});

test('requests without a bearer token are left to other authenticators', async (t) => {
  t.is(await authenticator.authenticate({ headers: {} }), null);
  t.is(await authenticator.authenticate({ headers: { authorization: 'Basic Ym9iOnB3' } }), null);
});

test('the admin user is a member of system:masters', (t) => {
  t.deepEqual(adminUser, { username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
});

test('always-allow allows everything', async (t) => {
  const decision = await new AlwaysAllowAuthorizer().authorize();
  t.is(decision.decision, 'allow');
});

test('the modules register the authenticator and authorizer', async (t) => {
  const c = container.createChildContainer();
  staticTokenAuth([{ token: 'bob-secret', user: bob }])(c);
  alwaysAllow()(c);
  const [authn] = c.resolveAll(Tokens.Authenticator);
  t.deepEqual(await authn!.authenticate({ headers: { authorization: 'Bearer bob-secret' } }), bob);
  t.is(c.resolveAll(Tokens.Authorizer)[0]!.name, 'always-allow');
});
