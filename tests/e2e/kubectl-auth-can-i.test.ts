// `kubectl auth can-i` and `kubectl --as` against a server whose authorizer is a small table of the test's own (RBAC is
// a separate module): SelfSubjectAccessReviews answer can-i, impersonation is allowed and refused with kube's text.
import test from 'ava';
import { join } from 'node:path';
import { describe, removeDir, runKubectl, tempDir, type KubectlResult } from '../helpers/kapi-process.js';
import { installWidgetsCrd, useTestServer } from '../helpers/test-server.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { staticTokenAuth, writeKubeconfig } from '../../index.js';

const tokens = { admin: 'admin-token', alice: 'alice-token' };

const authz = tableAuthorizer([
  { groups: ['system:masters'], verbs: ['*'], resources: ['*'], paths: ['*'] },
  { groups: ['system:authenticated'], verbs: ['get'], paths: ['*'] }, // discovery
  { groups: ['system:authenticated'], verbs: ['create'], resources: ['selfsubjectaccessreviews'], apiGroups: ['authorization.k8s.io'] },
  { users: ['alice'], verbs: ['create', 'list'], resources: ['widgets'], apiGroups: ['example.com'], namespaces: ['x'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['users'], names: ['bob'] },
  { users: ['alice'], verbs: ['impersonate'], resources: ['groups'], names: ['g'] },
  { users: ['bob'], verbs: ['delete'], resources: ['widgets'], apiGroups: ['example.com'] },
  { groups: ['g'], verbs: ['list'], resources: ['widgets'], apiGroups: ['example.com'], namespaces: ['y'] },
]);

const server = useTestServer({
  auth: {
    token: tokens.admin,
    modules: [
      staticTokenAuth([
        { token: tokens.admin, user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
        { token: tokens.alice, user: { username: 'alice', groups: ['system:authenticated'] } },
      ]),
      authz.module,
    ],
  },
});

let home = '';
let kubeconfig = '';

test.before(async () => {
  await installWidgetsCrd(server);
  home = tempDir('kapi-can-i-');
  kubeconfig = join(home, 'kubeconfig');
  await writeKubeconfig(kubeconfig, { server: server.url, caCertPem: server.ca, token: tokens.alice, clusterName: 'kapi', userName: 'alice', contextName: 'kapi' });
});

test.after.always(() => removeDir(home));

/** kubectl as alice (the tests are serial: their kubectl processes share one HOME and its discovery cache). */
function kubectl(args: string[]): Promise<KubectlResult> {
  return runKubectl(args, { env: { KUBECONFIG: kubeconfig, HOME: home } });
}

test.serial('can-i answers yes (exit 0) and no (exit 1) from the authorizer', async (t) => {
  const yes = await kubectl(['auth', 'can-i', 'create', 'widgets', '-n', 'x']);
  t.is(yes.code, 0, describe(yes));
  t.is(yes.stdout, 'yes\n', describe(yes));
  const no = await kubectl(['auth', 'can-i', 'delete', 'widgets', '-n', 'x']);
  t.is(no.code, 1, describe(no));
  t.is(no.stdout, 'no\n', describe(no));
  const otherNamespace = await kubectl(['auth', 'can-i', 'create', 'widgets.example.com', '-n', 'y']);
  t.is(otherNamespace.stdout, 'no\n', describe(otherNamespace));
});

test.serial('can-i --as and --as-group review the impersonated user', async (t) => {
  const bob = await kubectl(['auth', 'can-i', 'delete', 'widgets', '-n', 'x', '--as', 'bob']);
  t.is(bob.stdout, 'yes\n', describe(bob));
  const bobCreates = await kubectl(['auth', 'can-i', 'create', 'widgets', '-n', 'x', '--as', 'bob']);
  t.is(bobCreates.stdout, 'no\n', describe(bobCreates));
  const group = await kubectl(['auth', 'can-i', 'list', 'widgets', '-n', 'y', '--as', 'bob', '--as-group', 'g']);
  t.is(group.stdout, 'yes\n', describe(group));
});

test.serial('kubectl --as is refused with kube text when the user may not impersonate', async (t) => {
  const res = await kubectl(['get', 'widgets', '-n', 'x', '--as', 'mallory']);
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    'Error from server (Forbidden): users "mallory" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope\n',
    describe(res),
  );
  const group = await kubectl(['get', 'widgets', '-n', 'x', '--as', 'bob', '--as-group', 'admins']);
  t.regex(group.stderr, /groups "admins" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope/, describe(group));
});

test.serial('kubectl --as acts as the impersonated user', async (t) => {
  const asAlice = await kubectl(['get', 'widgets', '-n', 'x']);
  t.is(asAlice.code, 0, describe(asAlice));
  const asBob = await kubectl(['get', 'widgets', '-n', 'x', '--as', 'bob']);
  t.is(asBob.code, 1, describe(asBob));
  t.regex(asBob.stderr, /widgets.example.com is forbidden: User "bob" cannot list resource "widgets" in API group "example.com" in the namespace "x"/, describe(asBob));
  const asGroup = await kubectl(['get', 'widgets', '-n', 'y', '--as', 'bob', '--as-group', 'g']);
  t.is(asGroup.code, 0, describe(asGroup));
});

test.serial('kubectl --as-group with hundreds of groups: the header is within kube\'s 1 MiB limit, over HTTP/2 too', async (t) => {
  const groups = Array.from({ length: 400 }, (_, i) => ['--as-group', `group-number-${i}`]).flat();
  const res = await kubectl(['auth', 'can-i', 'list', 'widgets', '-n', 'y', '--token', tokens.admin, '--as', 'bob', '--as-group', 'g', ...groups]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'yes\n', describe(res));
});

test.serial('kubectl explain describes the reviews from OpenAPI', async (t) => {
  const res = await kubectl(['explain', 'selfsubjectaccessreviews.spec.resourceAttributes']);
  t.is(res.code, 0, describe(res));
  t.regex(res.stdout, /GROUP:\s+authorization.k8s.io\nKIND:\s+SelfSubjectAccessReview\nVERSION:\s+v1/, describe(res));
  t.regex(res.stdout, /namespace\s+<string>/, describe(res));
});
