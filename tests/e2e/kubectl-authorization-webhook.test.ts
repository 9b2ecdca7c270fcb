// `kapi serve --authorization-mode RBAC,Webhook` and `--authorization-config` with the real kubectl: a SubjectAccessReview
// webhook on loopback TLS allows a user RBAC does not (kubectl auth can-i, get), the rules list is incomplete as
// kube's; bad authorization files stop the start with a usage error.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { writeKubeconfig } from '../../index.js';
import { reviewer, writeWebhookKubeconfig } from '../helpers/authorization-webhook.js';
import { describe, repoRoot, startKapi, tempDir, tempFile, type KapiProcess } from '../helpers/kapi-process.js';
import { useWebhookServer } from '../helpers/webhook-server.js';

const hooks = useWebhookServer();
const tokenFile = tempFile('tokens.csv', 'alice-token,alice,alice-uid,"devs"\n');

/** The webhook allows alice to read configmaps, and denies her secrets. */
const aliceReadsConfigMaps = reviewer(
  (spec) => spec.user === 'alice' && spec.resourceAttributes?.resource === 'configmaps' && ['get', 'list'].includes(spec.resourceAttributes?.verb),
  (spec) => spec.resourceAttributes?.resource === 'secrets',
);

/** A kubeconfig for `kapi` as alice (her token from the token file). */
async function aliceKubeconfig(kapi: KapiProcess): Promise<string> {
  const file = join(tempDir('kapi-alice-'), 'kubeconfig');
  const caCertPem = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'), 'utf8');
  await writeKubeconfig(file, { server: kapi.url, caCertPem, token: 'alice-token', clusterName: 'kapi', userName: 'alice', contextName: 'kapi' });
  return file;
}

test.serial('RBAC,Webhook: kubectl auth can-i and get as a user only the webhook allows; --list is incomplete', async (t) => {
  hooks.handle('/flags', aliceReadsConfigMaps);
  const kapi = await startKapi({
    args: ['--storage', 'memory', '--token-auth-file', tokenFile, '--authorization-mode', 'RBAC,Webhook', '--authorization-webhook-config-file', writeWebhookKubeconfig(hooks, '/flags')],
  });
  try {
    const kubeconfig = await aliceKubeconfig(kapi);
    const yes = await kapi.kubectl(['auth', 'can-i', 'get', 'configmaps', '-n', 'default'], { kubeconfig });
    t.is(yes.stdout, 'yes\n', describe(yes));
    t.is(yes.code, 0);
    const no = await kapi.kubectl(['auth', 'can-i', 'delete', 'configmaps', '-n', 'default'], { kubeconfig });
    t.is(no.stdout, 'no - the webhook has no opinion\n', describe(no));
    t.is(no.code, 1);
    const denied = await kapi.kubectl(['auth', 'can-i', 'list', 'secrets', '-n', 'default'], { kubeconfig });
    t.is(denied.stdout, 'no - the webhook denies it\n', describe(denied));
    const list = await kapi.kubectl(['get', 'configmaps', '-n', 'default'], { kubeconfig });
    t.is(list.code, 0, describe(list));
    t.is(list.stderr, 'No resources found in default namespace.\n');
    const secrets = await kapi.kubectl(['get', 'secrets', '-n', 'default'], { kubeconfig });
    t.is(secrets.code, 1);
    t.is(secrets.stderr, 'Error from server (Forbidden): secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default": the webhook denies it\n');
    const rules = await kapi.kubectl(['auth', 'can-i', '--list', '-n', 'default'], { kubeconfig });
    t.is(rules.code, 0, describe(rules));
    t.regex(rules.stderr, /the list may be incomplete: webhook authorizer does not support user rule resolution/);
    // kube-apiserver's default webhook version: v1beta1, its groups under `group`
    const sent = hooks.requestsTo('/flags').find((r) => r.body?.spec?.resourceAttributes?.verb === 'delete');
    t.is(sent?.body.apiVersion, 'authorization.k8s.io/v1beta1');
    t.like(sent?.body.spec, { user: 'alice', uid: 'alice-uid', resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'configmaps' } });
    t.true(sent?.body.spec.group.includes('devs'));
    t.is(sent?.query.timeout, '30s');
  } finally {
    await kapi.stop();
  }
});

test.serial('--authorization-config: a webhook behind a match condition, after RBAC', async (t) => {
  hooks.handle('/config', aliceReadsConfigMaps);
  const config = tempFile(
    'authorization.yaml',
    stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthorizationConfiguration',
      authorizers: [
        { type: 'RBAC', name: 'rbac' },
        {
          type: 'Webhook',
          name: 'team-webhook',
          webhook: {
            timeout: '3s',
            subjectAccessReviewVersion: 'v1',
            matchConditionSubjectAccessReviewVersion: 'v1',
            failurePolicy: 'NoOpinion',
            connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: writeWebhookKubeconfig(hooks, '/config') },
            matchConditions: [{ expression: "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'default'" }],
          },
        },
      ],
    }),
  );
  const kapi = await startKapi({ args: ['--storage', 'memory', '--token-auth-file', tokenFile, '--authorization-config', config] });
  try {
    const kubeconfig = await aliceKubeconfig(kapi);
    const yes = await kapi.kubectl(['auth', 'can-i', 'get', 'configmaps', '-n', 'default'], { kubeconfig });
    t.is(yes.stdout, 'yes\n', describe(yes));
    const elsewhere = await kapi.kubectl(['auth', 'can-i', 'get', 'configmaps', '-n', 'kube-system'], { kubeconfig });
    t.is(elsewhere.stdout, 'no\n', describe(elsewhere));
    t.false(hooks.requestsTo('/config').some((r) => r.body?.spec?.resourceAttributes?.namespace === 'kube-system'), 'the match condition kept it from the webhook');
    const admin = await kapi.kubectl(['auth', 'can-i', '*', '*']);
    t.is(admin.stdout, 'yes\n', describe(admin));
  } finally {
    await kapi.stop();
  }
});

/** `kapi serve ARGS` that must not start: its exit code and stderr. */
function refusedStart(args: string[]): { code: number | null; stderr: string } {
  const res = spawnSync(process.execPath, ['bin/kapi', 'serve', '--port', '0', '--data-dir', '/nonexistent/never-created', ...args], { cwd: repoRoot, encoding: 'utf8' });
  return { code: res.status, stderr: res.stderr };
}

test('bad authorization flags and files stop kapi serve with a usage error (exit 2)', (t) => {
  const missing = '/nonexistent/webhook.kubeconfig';
  const cases: [string[], string][] = [
    [['--authorization-mode', 'RBAC,Webhook'], "kapi: authorization-mode Webhook's authorization config file not passed (see kapi serve --help)\n"],
    [['--authorization-mode', 'Webhook', '--authorization-webhook-config-file', missing], `kapi: --authorization-webhook-config-file ${missing}: open ${missing}: no such file or directory (see kapi serve --help)\n`],
    [
      ['--authorization-config', tempFile('empty.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n')],
      'authorizers: Required value: at least one authorization mode must be defined (see kapi serve --help)\n',
    ],
    [['--authorization-config', '/x.yaml', '--authorization-mode', 'RBAC'], 'kapi: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined (see kapi serve --help)\n'],
  ];
  for (const [args, message] of cases) {
    const res = refusedStart(args);
    t.is(res.code, 2, res.stderr);
    t.true(res.stderr.endsWith(message), res.stderr);
  }
});
