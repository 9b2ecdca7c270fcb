// kapi as an extension server (`kapi serve --authorization-kubeconfig`): a SubjectAccessReview created on the front
// server decides instead of kapi's own RBAC, except for the always-allowed paths and groups; an unreachable front is
// kube's internal error, never an allow.
import test from 'ava';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { writeKubeconfig } from '../../index.js';
import { describe, eventually, startKapi, tempDir, tempFile, type KapiProcess } from '../helpers/kapi-process.js';
import { useTestServer } from '../helpers/test-server.js';

const front = useTestServer({ storage: 'memory' });
const tokenFile = tempFile('tokens.csv', 'alice-token,alice,alice-uid,"devs"\n');

/** A kubeconfig for `server` (its CA) holding `token`. */
async function kubeconfigFor(server: string, caCertPem: string, token: string): Promise<string> {
  const file = join(tempDir('kapi-delegated-'), 'kubeconfig');
  await writeKubeconfig(file, { server, caCertPem, token, clusterName: 'c', userName: 'u', contextName: 'x' });
  return file;
}

async function extensionWith(frontKubeconfig: string): Promise<{ kapi: KapiProcess; alice: string }> {
  const kapi = await startKapi({
    args: ['--storage', 'memory', '--token-auth-file', tokenFile, '--authorization-kubeconfig', frontKubeconfig, '--authorization-webhook-cache-unauthorized-ttl', '0'],
  });
  const alice = await kubeconfigFor(kapi.url, readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'), 'utf8'), 'alice-token');
  return { kapi, alice };
}

/** GET `path` on the extension without credentials: the status. */
function anonymousGet(kapi: KapiProcess, path: string): Promise<number> {
  const ca = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'), 'utf8');
  return new Promise((resolve, reject) => {
    https.get(`${kapi.url}${path}`, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

test.serial('the front server\'s RBAC decides for the extension\'s users; a binding made there is followed', async (t) => {
  const { kapi, alice } = await extensionWith(await kubeconfigFor(front.url, front.ca, front.token));
  try {
    const refused = await kapi.kubectl(['get', 'configmaps', '-n', 'default'], { kubeconfig: alice });
    t.is(refused.code, 1, describe(refused));
    t.is(refused.stderr, 'Error from server (Forbidden): configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"\n');
    const binding = await front.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] },
    });
    t.is(binding.status, 201, binding.text);
    const allowed = await eventually(() => kapi.kubectl(['get', 'configmaps', '-n', 'default'], { kubeconfig: alice }), (r) => r.code === 0);
    t.is(allowed.code, 0, describe(allowed));
    const write = await kapi.kubectl(['create', 'configmap', 'x', '-n', 'default'], { kubeconfig: alice });
    t.is(write.code, 1, 'view does not create');
    // the extension's own admin is in system:masters, an always-allowed group
    const admin = await kapi.kubectl(['create', 'configmap', 'by-admin', '-n', 'default']);
    t.is(admin.code, 0, describe(admin));
  } finally {
    await kapi.stop();
  }
});

test.serial('always-allowed paths need no front; anything else without one is kube\'s internal error', async (t) => {
  // a front that is not there: nothing listens on the port any more
  const gone = await kubeconfigFor('https://127.0.0.1:9', front.ca, front.token);
  const { kapi, alice } = await extensionWith(gone);
  try {
    t.is(await anonymousGet(kapi, '/livez'), 200);
    t.is(await anonymousGet(kapi, '/readyz'), 200);
    t.is(await anonymousGet(kapi, '/version'), 500, 'not an always-allowed path: the front is asked');
    // --raw: without a front even discovery is refused to alice
    const refused = await kapi.kubectl(['get', '--raw', '/api/v1/namespaces/default/configmaps'], { kubeconfig: alice });
    t.is(refused.code, 1);
    t.regex(refused.stderr, /^Error from server \(InternalError\): Internal error occurred: Post "https:\/\/127\.0\.0\.1:9\/apis\/authorization\.k8s\.io\/v1\/subjectaccessreviews\?timeout=10s": dial tcp 127\.0\.0\.1:9: connect: connection refused\n$/);
    const admin = await kapi.kubectl(['get', 'configmaps', '-n', 'default']);
    t.is(admin.code, 0, describe(admin));
  } finally {
    await kapi.stop();
  }
});
