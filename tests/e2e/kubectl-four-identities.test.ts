// Issue #22: one `kapi serve` with four authenticators — client certificates of its CA, a --token-auth-file, ServiceAccount
// tokens from `kubectl create token`, and JWTs of a test OpenID issuer (--authentication-config) — and the real kubectl
// as each identity, with its own kubeconfig and discovery cache: `auth whoami`, a can-i matrix against the roles bound
// to each, kube's 403 texts, impersonation allowed and refused, and a ClusterRole aggregated into `edit` for a new CRD.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { createClientCert, type CertificatePem } from '../../plugins/auth/certificates.js';
import { kubeconfigYaml } from '../../plugins/auth/kubeconfig.js';
import { describe, eventually, example, removeDir, runKubectl, tempDir, tempFile, useKapi, type KubectlResult } from '../helpers/kapi-process.js';
import { startOidcIssuer } from '../helpers/oidc-issuer.js';

const issuer = await startOidcIssuer();
const authenticationConfig = `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${issuer.url}
    audiences: [kapi]
    certificateAuthority: ${JSON.stringify(issuer.caPem)}
  claimMappings:
    username: {claim: sub, prefix: "oidc:"}
    groups: {claim: groups, prefix: "oidc:"}
`;
const tokenFile = tempFile('tokens.csv', 'bob-token,bob,1002,editors\n');
const kapi = useKapi({
  args: ['--storage', 'memory', '--token-auth-file', tokenFile, '--authentication-config', tempFile('authentication-config.yaml', authenticationConfig)],
});

type Name = 'carol' | 'bob' | 'robot' | 'alice';
/** Each identity's kubeconfig lives in a folder of its own, which is also its HOME: its own kubectl discovery cache. */
const homes = {} as Record<Name, string>;
let robotUid = '';

/** kubectl as `name` (the tests are serial: an identity's kubectl processes share its discovery cache). */
function as(name: Name, args: string[], stdin?: string): Promise<KubectlResult> {
  return runKubectl(args, { stdin, env: { KUBECONFIG: join(homes[name], 'kubeconfig'), HOME: homes[name] } });
}

/** kubectl as kapi's admin; throws with kubectl's output when it fails. */
async function admin(args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

async function oidcToken(sub: string, groups: string[]): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ groups })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(issuer.url)
    .setAudience('kapi')
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(issuer.key);
}

const rbacGroup = 'rbac.authorization.k8s.io';
const subject = (kind: 'User' | 'Group', name: string) => ({ kind, apiGroup: rbacGroup, name });
const roleRef = (kind: 'Role' | 'ClusterRole', name: string) => ({ apiGroup: rbacGroup, kind, name });
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, namespace: string | undefined, ref: object, subjects: object[]) => ({
  apiVersion: `${rbacGroup}/v1`,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef: ref,
  subjects,
});

/**
 * What the admin creates, in one kubectl call: carol's group may view team-a; bob may edit team-a; robot may read
 * configmaps in team-b (a Role of its own); alice's group may view every namespace, and alice may impersonate bob.
 */
const setup = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'team-b' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-b' }, data: { mode: 'fast' } },
    binding('RoleBinding', 'devs-view', 'team-a', roleRef('ClusterRole', 'view'), [subject('Group', 'devs')]),
    binding('RoleBinding', 'bob-edit', 'team-a', roleRef('ClusterRole', 'edit'), [subject('User', 'bob')]),
    { apiVersion: `${rbacGroup}/v1`, kind: 'Role', metadata: { name: 'configmap-reader', namespace: 'team-b' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }] },
    binding('RoleBinding', 'robot-configmap-reader', 'team-b', roleRef('Role', 'configmap-reader'), [{ kind: 'ServiceAccount', name: 'robot', namespace: 'team-b' }]),
    binding('ClusterRoleBinding', 'oidc-viewers-view', undefined, roleRef('ClusterRole', 'view'), [subject('Group', 'oidc:viewers')]),
    { apiVersion: `${rbacGroup}/v1`, kind: 'ClusterRole', metadata: { name: 'impersonate-bob' }, rules: [{ apiGroups: [''], resources: ['users'], resourceNames: ['bob'], verbs: ['impersonate'] }] },
    binding('ClusterRoleBinding', 'alice-impersonates-bob', undefined, roleRef('ClusterRole', 'impersonate-bob'), [subject('User', 'oidc:alice')]),
  ],
};

test.serial.before(async () => {
  // kubectl prints the template once per object created
  const created = await admin(['create', '-f', '-', '-o', 'jsonpath={.kind} {.metadata.uid}{"\\n"}'], JSON.stringify(setup));
  robotUid = /^ServiceAccount (\S+)$/m.exec(created.stdout)![1]!;
  // RBAC follows its objects through informers: once the last binding counts, they all do
  await eventually(() => kapi.kubectl(['auth', 'can-i', 'impersonate', 'users/bob', '--as', 'oidc:alice']), (r) => r.stdout === 'yes\n');
  const pki = join(kapi.dataDir, 'pki');
  const ca = { certPem: readFileSync(join(pki, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'ca.key'), 'utf8') };
  const credentials: Record<Name, { token: string } | { clientCertificate: CertificatePem }> = {
    carol: { clientCertificate: await createClientCert(ca, { username: 'carol', groups: ['devs'] }, 24 * 3600 * 1000) },
    bob: { token: 'bob-token' },
    robot: { token: (await admin(['-n', 'team-b', 'create', 'token', 'robot'])).stdout.trim() },
    alice: { token: await oidcToken('alice', ['viewers']) },
  };
  for (const [name, credential] of Object.entries(credentials) as [Name, (typeof credentials)[Name]][]) {
    homes[name] = tempDir(`kapi-e2e-${name}-`);
    const kubeconfig = kubeconfigYaml({ server: kapi.url, caCertPem: ca.certPem, clusterName: 'kapi', userName: name, contextName: 'kapi', ...credential });
    writeFileSync(join(homes[name], 'kubeconfig'), kubeconfig);
  }
});

test.after.always(async () => {
  for (const home of Object.values(homes)) removeDir(home);
  await issuer.close();
});

test.serial('kubectl auth whoami prints each identity as its authenticator made it', async (t) => {
  const whoami = async (name: Name) => {
    const res = await as(name, ['auth', 'whoami']);
    t.is(res.code, 0, describe(res));
    return res.stdout;
  };
  t.is(await whoami('carol'), 'ATTRIBUTE   VALUE\nUsername    carol\nGroups      [devs system:authenticated]\n');
  t.is(await whoami('bob'), 'ATTRIBUTE   VALUE\nUsername    bob\nUID         1002\nGroups      [editors system:authenticated]\n');
  t.is(await whoami('alice'), 'ATTRIBUTE   VALUE\nUsername    oidc:alice\nGroups      [oidc:viewers system:authenticated]\n');
  const robot = await as('robot', ['auth', 'whoami', '-o', 'json']);
  t.is(robot.code, 0, describe(robot));
  const { username, uid, groups, extra } = JSON.parse(robot.stdout).status.userInfo;
  t.deepEqual({ username, uid, groups }, {
    username: 'system:serviceaccount:team-b:robot',
    uid: robotUid,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:team-b', 'system:authenticated'],
  });
  t.deepEqual(Object.keys(extra), ['authentication.kubernetes.io/credential-id'], robot.stdout);
  t.regex(extra['authentication.kubernetes.io/credential-id'][0], /^JTI=[0-9a-f-]{36}$/);
});

test.serial('kubectl auth can-i: verbs × resources × namespaces, for each identity, is what its bindings grant', async (t) => {
  // one kubectl per cell, serially: list and watch always travel with get in these roles, so get stands for them
  const verbs = ['get', 'create', 'delete'];
  const resources = ['configmaps', 'secrets', 'rolebindings'];
  const namespaces = ['team-a', 'team-b'];
  // kube's bootstrap roles: view reads configmaps but not secrets; edit writes both; neither touches RBAC objects
  const view = new Set(['get configmaps']);
  const edit = new Set(verbs.flatMap((v) => [`${v} configmaps`, `${v} secrets`]));
  const granted: Record<Name, Record<string, Set<string>>> = {
    carol: { 'team-a': view },
    bob: { 'team-a': edit },
    robot: { 'team-b': view },
    alice: { 'team-a': view, 'team-b': view },
  };
  for (const name of Object.keys(granted) as Name[]) {
    const expected: string[] = [];
    const actual: string[] = [];
    for (const ns of namespaces) {
      for (const resource of resources) {
        for (const verb of verbs) {
          const res = await as(name, ['auth', 'can-i', verb, resource, '-n', ns]);
          const check = `${verb} ${resource} -n ${ns}`;
          expected.push(`${check}: ${granted[name][ns]?.has(`${verb} ${resource}`) ? 'yes' : 'no'}`);
          const answer = res.stdout.trim();
          // can-i exits 0 for yes and 1 for no; any other pairing shows in the comparison
          actual.push(`${check}: ${answer}${res.code === (answer === 'yes' ? 0 : 1) ? '' : ` (exit ${res.code}: ${res.stderr.trim()})`}`);
        }
      }
    }
    t.deepEqual(actual, expected, name);
  }
});

test.serial('a refused kubectl get prints kube\'s 403 text, naming the user as each authenticator does', async (t) => {
  const refused: [Name, string[], string][] = [
    ['carol', ['get', 'secrets', '-n', 'team-a'], 'secrets is forbidden: User "carol" cannot list resource "secrets" in API group "" in the namespace "team-a"'],
    ['bob', ['get', 'configmaps', '-n', 'team-b'], 'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "team-b"'],
    ['robot', ['get', 'configmap', 'settings', '-n', 'team-a'], 'configmaps "settings" is forbidden: User "system:serviceaccount:team-b:robot" cannot get resource "configmaps" in API group "" in the namespace "team-a"'],
    ['alice', ['delete', 'rolebinding', 'bob-edit', '-n', 'team-a'], 'rolebindings.rbac.authorization.k8s.io "bob-edit" is forbidden: User "oidc:alice" cannot delete resource "rolebindings" in API group "rbac.authorization.k8s.io" in the namespace "team-a"'],
  ];
  for (const [name, args, message] of refused) {
    const res = await as(name, args);
    t.is(res.code, 1, describe(res));
    t.is(res.stderr, `Error from server (Forbidden): ${message}\n`, describe(res));
  }
  const allowed = await as('robot', ['get', 'configmap', 'settings', '-n', 'team-b', '-o', 'jsonpath={.data.mode}']);
  t.is(allowed.stdout, 'fast', describe(allowed));
});

test.serial('kubectl --as: alice, granted impersonate on user bob, acts as bob; other names and other users are refused with kube\'s text', async (t) => {
  const asBob = await as('alice', ['--as', 'bob', 'auth', 'whoami']);
  t.is(asBob.stdout, 'ATTRIBUTE   VALUE\nUsername    bob\nGroups      [system:authenticated]\n', describe(asBob));
  const bobsSecrets = await as('alice', ['--as', 'bob', 'get', 'secrets', '-n', 'team-a']);
  t.is(bobsSecrets.code, 0, describe(bobsSecrets));
  t.is(await as('alice', ['--as', 'bob', 'auth', 'can-i', 'create', 'secrets', '-n', 'team-a']).then((r) => r.stdout), 'yes\n');

  const refused: [Name, string[], string][] = [
    ['alice', ['--as', 'carol'], 'users "carol" is forbidden: User "oidc:alice" cannot impersonate resource "users" in API group "" at the cluster scope'],
    ['alice', ['--as', 'bob', '--as-group', 'devs'], 'groups "devs" is forbidden: User "oidc:alice" cannot impersonate resource "groups" in API group "" at the cluster scope'],
    ['bob', ['--as', 'oidc:alice'], 'users "oidc:alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope'],
    ['robot', ['--as', 'bob'], 'users "bob" is forbidden: User "system:serviceaccount:team-b:robot" cannot impersonate resource "users" in API group "" at the cluster scope'],
  ];
  for (const [name, impersonation, message] of refused) {
    const res = await as(name, [...impersonation, 'get', 'configmaps', '-n', 'team-a']);
    t.is(res.code, 1, describe(res));
    t.is(res.stderr, `Error from server (Forbidden): ${message}\n`, describe(res));
  }
});

test.serial('a new CRD\'s ClusterRole labelled aggregate-to-edit makes its resources editable for the edit identity, and only for it', async (t) => {
  await admin(['apply', '-f', example('widgets-crd.yaml')]);
  await admin(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com']);
  const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  color: red\n';
  const before = await as('bob', ['auth', 'can-i', 'create', 'widgets.example.com', '-n', 'team-a']);
  t.is(before.stdout, 'no\n', describe(before));
  const refused = await as('bob', ['-n', 'team-a', 'create', '-f', '-'], widget);
  t.is(refused.stderr, 'Error from server (Forbidden): error when creating "STDIN": widgets.example.com is forbidden: User "bob" cannot create resource "widgets" in API group "example.com" in the namespace "team-a"\n', describe(refused));

  await admin(
    ['apply', '-f', '-'],
    `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widgets-edit
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [get, list, watch, create, update, patch, delete]
`,
  );
  const after = await eventually(() => as('bob', ['auth', 'can-i', 'create', 'widgets.example.com', '-n', 'team-a']), (r) => r.stdout === 'yes\n');
  t.is(after.stdout, 'yes\n', describe(after));
  const created = await as('bob', ['-n', 'team-a', 'create', '-f', '-'], widget);
  t.is(created.stdout, 'widget.example.com/w1 created\n', describe(created));
  const listed = await as('bob', ['-n', 'team-a', 'get', 'widgets', '-o', 'name']);
  t.is(listed.stdout, 'widget.example.com/w1\n', describe(listed));
  // the role bound in another namespace, and view, are not widened
  t.is((await as('bob', ['auth', 'can-i', 'create', 'widgets.example.com', '-n', 'team-b'])).stdout, 'no\n');
  t.is((await as('carol', ['auth', 'can-i', 'create', 'widgets.example.com', '-n', 'team-a'])).stdout, 'no\n');
  const carolDeletes = await as('carol', ['-n', 'team-a', 'delete', 'widget', 'w1']);
  t.is(carolDeletes.stderr, 'Error from server (Forbidden): widgets.example.com "w1" is forbidden: User "carol" cannot delete resource "widgets" in API group "example.com" in the namespace "team-a"\n', describe(carolDeletes));
});
