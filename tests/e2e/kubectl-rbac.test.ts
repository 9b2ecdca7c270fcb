// RBAC with the real kubectl against `kapi serve` (default --authorization-mode RBAC): the admin creates Roles and
// RoleBindings with `kubectl create`, a ServiceAccount's token is the non-admin user; allowed and forbidden requests
// with kube's texts, `kubectl auth can-i --list`, escalation refused, a labelled ClusterRole aggregated into `edit`.
import test from 'ava';
import { describe, eventually, row, table, useKapi, type KubectlResult } from '../helpers/kapi-process.js';
import { spawnKubectl } from '../helpers/kubectl-stream.js';

const kapi = useKapi({ widgets: true });

async function ok(args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

/** A ServiceAccount in a new namespace and a token for it: a user bound to nothing yet. */
async function newUser(ns: string, name: string): Promise<{ user: string; token: string; as: (args: string[], stdin?: string) => Promise<KubectlResult> }> {
  await ok(['create', 'namespace', ns]);
  await ok(['-n', ns, 'create', 'serviceaccount', name]);
  const token = (await ok(['-n', ns, 'create', 'token', name])).stdout.trim();
  return { user: `system:serviceaccount:${ns}:${name}`, token, as: (args, stdin) => kapi.kubectl(['--token', token, ...args], { stdin }) };
}

test('a RoleBinding grants its Role in its namespace only; the rest is refused with kube\'s text', async (t) => {
  const { user, as } = await newUser('team-a', 'alice');
  await ok(['-n', 'team-a', 'create', 'role', 'reader', '--verb=get,list', '--resource=configmaps,widgets.example.com']);
  await ok(['-n', 'team-a', 'create', 'rolebinding', 'alice-reader', '--role=reader', '--serviceaccount=team-a:alice']);
  await ok(['-n', 'team-a', 'create', 'configmap', 'settings', '--from-literal=a=b']);

  const allowed = await eventually(() => as(['-n', 'team-a', 'get', 'configmaps']), (r) => r.code === 0);
  t.truthy(row(table(allowed.stdout), 'settings'), describe(allowed));
  t.is((await as(['-n', 'team-a', 'get', 'widgets'])).code, 0);

  const secrets = await as(['-n', 'team-a', 'get', 'secrets']);
  t.not(secrets.code, 0);
  t.is(secrets.stderr.trim(), `Error from server (Forbidden): secrets is forbidden: User "${user}" cannot list resource "secrets" in API group "" in the namespace "team-a"`);
  const elsewhere = await as(['-n', 'demo', 'get', 'widgets']);
  t.is(elsewhere.stderr.trim(), `Error from server (Forbidden): widgets.example.com is forbidden: User "${user}" cannot list resource "widgets" in API group "example.com" in the namespace "demo"`);
  const write = await as(['-n', 'team-a', 'delete', 'configmap', 'settings']);
  t.is(write.stderr.trim(), `Error from server (Forbidden): configmaps "settings" is forbidden: User "${user}" cannot delete resource "configmaps" in API group "" in the namespace "team-a"`);
});

test('kubectl auth can-i and can-i --list answer from the bound roles', async (t) => {
  const { as } = await newUser('team-b', 'bob');
  await ok(['-n', 'team-b', 'create', 'role', 'cm-writer', '--verb=get,create', '--resource=configmaps', '--resource-name=one']);
  await ok(['-n', 'team-b', 'create', 'rolebinding', 'bob-cm', '--role=cm-writer', '--serviceaccount=team-b:bob']);
  const list = await eventually(() => as(['-n', 'team-b', 'auth', 'can-i', '--list']), (r) => r.stdout.includes('configmaps'));
  const rows = table(list.stdout);
  t.deepEqual(rows[0], ['Resources', 'Non-Resource', 'URLs', 'Resource', 'Names', 'Verbs']);
  t.deepEqual(row(rows, 'configmaps'), ['configmaps', '[]', '[one]', '[get', 'create]']);
  t.deepEqual(row(rows, 'selfsubjectrulesreviews.authorization.k8s.io'), ['selfsubjectrulesreviews.authorization.k8s.io', '[]', '[]', '[create]']);
  t.truthy(list.stdout.includes('[/api/*]'), list.stdout);
  const elsewhere = table((await as(['-n', 'default', 'auth', 'can-i', '--list'])).stdout);
  t.is(row(elsewhere, 'configmaps'), undefined);
  const admin = table((await ok(['-n', 'team-b', 'auth', 'can-i', '--list'])).stdout);
  t.deepEqual(row(admin, '*.*'), ['*.*', '[]', '[]', '[*]']);
  // resourceNames: the named object only
  t.regex((await as(['-n', 'team-b', 'get', 'configmap', 'one'])).stderr, /NotFound/);
  t.regex((await as(['-n', 'team-b', 'get', 'configmap', 'two'])).stderr, /Forbidden.*configmaps "two" is forbidden/);
});

test('a Role limited to one name lets its user list that object by name and watch it (kubectl get NAME -w), as kube authorizes a metadata.name field selector', async (t) => {
  const { user, token, as } = await newUser('team-f', 'erin');
  await ok(['-n', 'team-f', 'create', 'configmap', 'one', '--from-literal=a=1']);
  await ok(['-n', 'team-f', 'create', 'role', 'one-reader', '--verb=get,list,watch', '--resource=configmaps', '--resource-name=one']);
  await ok(['-n', 'team-f', 'create', 'rolebinding', 'erin-one', '--role=one-reader', '--serviceaccount=team-f:erin']);

  const listed = await eventually(() => as(['-n', 'team-f', 'get', 'configmaps', '--field-selector=metadata.name=one', '-o', 'name']), (r) => r.code === 0);
  t.is(listed.stdout.trim(), 'configmap/one');
  const all = await as(['-n', 'team-f', 'get', 'configmaps']);
  t.is(all.stderr.trim(), `Error from server (Forbidden): configmaps is forbidden: User "${user}" cannot list resource "configmaps" in API group "" in the namespace "team-f"`);

  const w = spawnKubectl(kapi, ['--token', token, '-n', 'team-f', 'get', 'configmap', 'one', '-w', '-o', 'custom-columns=NAME:.metadata.name,A:.data.a', '--no-headers']);
  try {
    await w.waitForLine(/^one\s+1\s*$/);
    const mark = w.lines.length;
    await ok(['-n', 'team-f', 'patch', 'configmap', 'one', '-p', '{"data":{"a":"2"}}']);
    await w.waitForLine(/^one\s+2\s*$/, { from: mark });
    t.is(w.stderr(), '', w.describe());
  } finally {
    await w.kill();
  }
});

test('a Role granting more than its writer holds is refused (escalation), as is binding such a role', async (t) => {
  const { user, as } = await newUser('team-c', 'carol');
  await ok(['-n', 'team-c', 'create', 'role', 'role-maker', '--verb=create', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io', '--verb=get', '--resource=configmaps']);
  await ok(['-n', 'team-c', 'create', 'rolebinding', 'carol-maker', '--role=role-maker', '--serviceaccount=team-c:carol']);
  await eventually(() => as(['-n', 'team-c', 'auth', 'can-i', '--list']), (r) => r.stdout.includes('roles.rbac.authorization.k8s.io'));

  const within = await as(['-n', 'team-c', 'create', 'role', 'small', '--verb=get', '--resource=configmaps']);
  t.is(within.code, 0, describe(within));
  const beyond = await as(['-n', 'team-c', 'create', 'role', 'big', '--verb=get,delete', '--resource=secrets']);
  t.is(
    beyond.stderr.trim(),
    `Error from server (Forbidden): roles.rbac.authorization.k8s.io "big" is forbidden: user "${user}" (groups=["system:serviceaccounts" "system:serviceaccounts:team-c" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}`,
  );
  await ok(['-n', 'team-c', 'create', 'role', 'secrets-admin', '--verb=*', '--resource=secrets']);
  const bind = await as(['-n', 'team-c', 'create', 'rolebinding', 'grab', '--role=secrets-admin', '--serviceaccount=team-c:carol']);
  t.regex(bind.stderr, /rolebindings\.rbac\.authorization\.k8s\.io "grab" is forbidden: user .* is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["\*"\]\}/);
  const small = await as(['-n', 'team-c', 'create', 'rolebinding', 'ok', '--role=small', '--serviceaccount=team-c:carol']);
  t.is(small.code, 0, describe(small));
});

test('a ClusterRole labelled aggregate-to-edit widens edit; a user bound to edit gets its resources', async (t) => {
  const { as } = await newUser('team-d', 'dave');
  await ok(['-n', 'team-d', 'create', 'rolebinding', 'dave-edit', '--clusterrole=edit', '--serviceaccount=team-d:dave']);
  const before = await eventually(() => as(['-n', 'team-d', 'auth', 'can-i', '--list']), (r) => r.stdout.includes('configmaps'));
  t.false(before.stdout.includes('widgets'), before.stdout);
  const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  color: red\n';
  t.regex((await as(['-n', 'team-d', 'create', '-f', '-'], widget)).stderr, /widgets\.example\.com is forbidden/);
  await ok(['create', 'clusterrole', 'widgets-edit', '--verb=get,list,create', '--resource=widgets.example.com']);
  await ok(['label', 'clusterrole', 'widgets-edit', 'rbac.authorization.k8s.io/aggregate-to-edit=true']);
  const after = await eventually(() => as(['-n', 'team-d', 'auth', 'can-i', '--list']), (r) => r.stdout.includes('widgets'));
  t.deepEqual(row(table(after.stdout), 'widgets.example.com'), ['widgets.example.com', '[]', '[]', '[get', 'list', 'create]']);
  const created = await as(['-n', 'team-d', 'create', '-f', '-'], widget);
  t.is(created.code, 0, describe(created));
  const edit = await ok(['get', 'clusterrole', 'edit', '-o', 'jsonpath={.rules[*].resources}']);
  t.regex(edit.stdout, /widgets/);
  // admin aggregates edit
  const admin = await eventually(() => ok(['get', 'clusterrole', 'admin', '-o', 'jsonpath={.rules[*].resources}']), (r) => r.stdout.includes('widgets'));
  t.regex(admin.stdout, /rolebindings/);
});

test('kubectl get clusterroles and rolebindings print kube\'s columns', async (t) => {
  const roles = table((await ok(['get', 'clusterroles'])).stdout);
  t.deepEqual(roles[0], ['NAME', 'CREATED', 'AT']);
  t.regex(row(roles, 'cluster-admin')?.[1] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  for (const name of ['admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:auth-delegator']) t.truthy(row(roles, name), name);
  await ok(['create', 'namespace', 'team-e']);
  await ok(['-n', 'team-e', 'create', 'rolebinding', 'mixed', '--clusterrole=view', '--user=erin', '--group=devs', '--serviceaccount=team-e:robot']);
  const wide = table((await ok(['-n', 'team-e', 'get', 'rolebindings', '-o', 'wide'])).stdout);
  t.deepEqual(wide[0], ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
  const mixed = row(wide, 'mixed')!;
  t.deepEqual([mixed[1], ...mixed.slice(3)], ['ClusterRole/view', 'erin', 'devs', 'team-e/robot']);
  const crb = table((await ok(['get', 'clusterrolebindings'])).stdout);
  t.deepEqual(row(crb, 'cluster-admin')?.slice(0, 2), ['cluster-admin', 'ClusterRole/cluster-admin']);
});
