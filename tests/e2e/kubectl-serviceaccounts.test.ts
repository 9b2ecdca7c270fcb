// ServiceAccounts and their tokens through the real kubectl: create serviceaccount, get sa, create token, and kubectl
// authenticated by that token alone (kapi's authorizer allows every authenticated user, so the account may do
// everything the admin may: RBAC is not served yet).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, eventually, row, table, tempFile, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi();
const apiAudience = 'https://kubernetes.default.svc.cluster.local';

/** A kubeconfig with kapi's address and CA but no credentials: kubectl must be given a token. */
function kubeconfigWithoutCredentials(): string {
  const ca = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt')).toString('base64');
  return tempFile(
    'kubeconfig',
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: kapi',
      '  cluster:',
      `    server: ${kapi.url}`,
      `    certificate-authority-data: ${ca}`,
      'users:',
      '- name: nobody',
      '  user: {}',
      'contexts:',
      '- name: kapi',
      '  context: { cluster: kapi, user: nobody, namespace: default }',
      'current-context: kapi',
      '',
    ].join('\n'),
  );
}

test.serial('create serviceaccount, then get sa shows NAME SECRETS AGE beside the default account', async (t) => {
  const created = await kapi.kubectl(['create', 'serviceaccount', 'robot']);
  t.is(created.code, 0, describe(created));
  t.is(created.stdout, 'serviceaccount/robot created\n', describe(created));
  const res = await kapi.kubectl(['get', 'sa']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'SECRETS', 'AGE'], describe(res));
  t.deepEqual(row(rows, 'robot')?.slice(0, 2), ['robot', '0'], describe(res));
  t.deepEqual(row(rows, 'default')?.slice(0, 2), ['default', '0'], describe(res));
});

test.serial('a new namespace gets its default ServiceAccount, and is deleted with it', async (t) => {
  t.is((await kapi.kubectl(['create', 'namespace', 'team-a'])).code, 0);
  const res = await eventually(
    () => kapi.kubectl(['get', 'serviceaccount', 'default', '-n', 'team-a', '-o', 'name']),
    (r) => r.code === 0,
  );
  t.is(res.stdout, 'serviceaccount/default\n', describe(res));
  // the namespace still goes away: its accounts are deleted with it and not created again while it terminates
  const deleted = await kapi.kubectl(['delete', 'namespace', 'team-a', '--timeout=30s']);
  t.is(deleted.code, 0, describe(deleted));
  const gone = await kapi.kubectl(['get', 'namespace', 'team-a']);
  t.regex(gone.stderr, /namespaces "team-a" not found/, describe(gone));
});

test.serial('create token, and kubectl with that token alone reaches the API as the account', async (t) => {
  const res = await kapi.kubectl(['create', 'token', 'robot', '--audience', apiAudience, '--duration', '20m']);
  t.is(res.code, 0, describe(res));
  const token = res.stdout.trim();
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
  t.like(claims, { aud: [apiAudience], sub: 'system:serviceaccount:default:robot' });
  t.is(claims.exp - claims.iat, 1200);
  // RBAC: the account may read ServiceAccounts
  t.is((await kapi.kubectl(['create', 'rolebinding', 'robot-view', '--clusterrole=view', '--serviceaccount=default:robot'])).code, 0);
  const kubeconfig = kubeconfigWithoutCredentials();
  const wrong = await kapi.kubectl(['--token', `${token}x`, 'get', '--raw', '/apis'], { kubeconfig });
  t.not(wrong.code, 0, describe(wrong));
  t.regex(wrong.stderr, /Unauthorized/, describe(wrong));
  const apis = await kapi.kubectl(['--token', token, 'get', '--raw', '/apis'], { kubeconfig });
  t.is(apis.code, 0, describe(apis));
  t.is(JSON.parse(apis.stdout).kind, 'APIGroupList', describe(apis));
  const sa = await eventually(
    () => kapi.kubectl(['--token', token, 'get', 'sa', 'robot', '-o', 'jsonpath={.metadata.name}'], { kubeconfig }),
    (r) => r.code === 0,
  );
  t.is(sa.stdout, 'robot', describe(sa));
});

test.serial('a token for another audience, or of a deleted account, does not authenticate', async (t) => {
  const kubeconfig = kubeconfigWithoutCredentials();
  const other = await kapi.kubectl(['create', 'token', 'robot', '--audience', 'https://vault.example.com']);
  t.is(other.code, 0, describe(other));
  const refused = await kapi.kubectl(['--token', other.stdout.trim(), 'get', '--raw', '/apis'], { kubeconfig });
  t.not(refused.code, 0, describe(refused));
  t.regex(refused.stderr, /Unauthorized/, describe(refused));

  const token = (await kapi.kubectl(['create', 'token', 'robot'])).stdout.trim();
  t.is((await kapi.kubectl(['--token', token, 'get', '--raw', '/apis'], { kubeconfig })).code, 0);
  t.is((await kapi.kubectl(['delete', 'serviceaccount', 'robot'])).code, 0);
  const gone = await kapi.kubectl(['--token', token, 'get', '--raw', '/apis'], { kubeconfig });
  t.not(gone.code, 0, describe(gone));
  t.regex(gone.stderr, /Unauthorized/, describe(gone));
});

test.serial('a long-lived token Secret (kube\'s documented manual procedure) gets a token, ca.crt and namespace that authenticate until the Secret or the account goes', async (t) => {
  t.is((await kapi.kubectl(['create', 'serviceaccount', 'build-robot'])).code, 0);
  const secret = (name: string, account: string) =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  annotations:\n    kubernetes.io/service-account.name: ${account}\ntype: kubernetes.io/service-account-token\n`;
  t.is((await kapi.kubectl(['apply', '-f', '-'], { stdin: secret('build-robot-secret', 'build-robot') })).code, 0);
  const filled = await eventually(
    () => kapi.kubectl(['get', 'secret', 'build-robot-secret', '-o', 'json']),
    (r) => r.code === 0 && Boolean(JSON.parse(r.stdout).data?.token),
  );
  const obj = JSON.parse(filled.stdout);
  const uid = JSON.parse((await kapi.kubectl(['get', 'sa', 'build-robot', '-o', 'json'])).stdout).metadata.uid;
  t.is(obj.metadata.annotations['kubernetes.io/service-account.uid'], uid);
  t.is(Buffer.from(obj.data.namespace, 'base64').toString(), 'default');
  t.is(Buffer.from(obj.data['ca.crt'], 'base64').toString(), readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'), 'utf8'));
  const token = Buffer.from(obj.data.token, 'base64').toString();
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
  t.deepEqual(claims, {
    iss: 'kubernetes/serviceaccount',
    'kubernetes.io/serviceaccount/namespace': 'default',
    'kubernetes.io/serviceaccount/secret.name': 'build-robot-secret',
    'kubernetes.io/serviceaccount/service-account.name': 'build-robot',
    'kubernetes.io/serviceaccount/service-account.uid': uid,
    sub: 'system:serviceaccount:default:build-robot',
  });
  const kubeconfig = kubeconfigWithoutCredentials();
  const whoami = await kapi.kubectl(['--token', token, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], { kubeconfig });
  t.is(whoami.stdout, 'system:serviceaccount:default:build-robot', describe(whoami));
  t.is((await kapi.kubectl(['delete', 'secret', 'build-robot-secret'])).code, 0);
  const revoked = await kapi.kubectl(['--token', token, 'auth', 'whoami'], { kubeconfig });
  t.regex(revoked.stderr, /Unauthorized/, describe(revoked));

  // a Secret for an account that does not exist is deleted, and so are an account's Secrets with the account
  t.is((await kapi.kubectl(['apply', '-f', '-'], { stdin: secret('ghost-secret', 'ghost') })).code, 0);
  t.is((await kapi.kubectl(['apply', '-f', '-'], { stdin: secret('robot-secret-2', 'build-robot') })).code, 0);
  await eventually(() => kapi.kubectl(['get', 'secret', 'robot-secret-2', '-o', 'jsonpath={.data.token}']), (r) => r.stdout !== '');
  t.is((await kapi.kubectl(['delete', 'sa', 'build-robot'])).code, 0);
  for (const name of ['ghost-secret', 'robot-secret-2']) {
    const gone = await eventually(() => kapi.kubectl(['get', 'secret', name]), (r) => r.code !== 0);
    t.regex(gone.stderr, new RegExp(`secrets "${name}" not found`), describe(gone));
  }
});

test.serial('create token refuses what kube refuses, with kube texts', async (t) => {
  t.is((await kapi.kubectl(['create', 'serviceaccount', 'builder'])).code, 0);
  const short = await kapi.kubectl(['create', 'token', 'builder', '--duration', '1m']);
  t.not(short.code, 0, describe(short));
  t.regex(
    short.stderr,
    /TokenRequest\.authentication\.k8s\.io "" is invalid: spec\.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes/,
    describe(short),
  );
  const missing = await kapi.kubectl(['create', 'token', 'nobody']);
  t.regex(missing.stderr, /serviceaccounts "nobody" not found/, describe(missing));
  const pod = await kapi.kubectl(['create', 'token', 'builder', '--bound-object-kind', 'Pod', '--bound-object-name', 'web']);
  t.regex(pod.stderr, /cannot bind token to object of type \/v1, Kind=Pod/, describe(pod));
});
