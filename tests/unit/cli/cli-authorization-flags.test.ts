// The authorization flags of `kapi serve`: mode Webhook and its --authorization-webhook-* flags, --authorization-config
// (exclusive with them), --authorization-kubeconfig (delegation, instead of local modes), with kube-apiserver's messages.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseServeFlags, type ServeOptions } from '../../../cli/serve-flags.js';
import { UsageError } from '../../../cli/usage-error.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-authz-flags-'));
const kubeconfig = join(dir, 'webhook.kubeconfig');
writeFileSync(
  kubeconfig,
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'authz', cluster: { server: 'https://127.0.0.1:1/authorize', 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'apiserver', user: { token: 't' } }],
    contexts: [{ name: 'authz', context: { cluster: 'authz', user: 'apiserver' } }],
    'current-context': 'authz',
  }),
);
const authzConfig = join(dir, 'authz.yaml');
writeFileSync(authzConfig, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n');

const parse = (args: string[]) => parseServeFlags(args) as ServeOptions;
const refused = (t: import('ava').ExecutionContext, args: string[], message: string) => t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));

test('mode Webhook: its kubeconfig read, kube-apiserver\'s defaults v1beta1, 5m and 30s', (t) => {
  const opts = parse(['--authorization-mode', 'RBAC,Webhook', '--authorization-webhook-config-file', kubeconfig]);
  t.deepEqual(opts.authorizationModes, ['RBAC', 'Webhook']);
  t.like(opts.authorizationWebhook, { version: 'v1beta1', authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 });
  t.is(opts.authorizationWebhook?.client.target.server, 'https://127.0.0.1:1/authorize');
  const given = parse([
    '--authorization-mode=Webhook',
    `--authorization-webhook-config-file=${kubeconfig}`,
    '--authorization-webhook-version=v1',
    '--authorization-webhook-cache-authorized-ttl=1m30s',
    '--authorization-webhook-cache-unauthorized-ttl=0',
  ]);
  t.like(given.authorizationWebhook, { version: 'v1', authorizedTtlMs: 90_000, unauthorizedTtlMs: 0 });
});

test('mode Webhook and its flags are checked with kube-apiserver\'s messages', (t) => {
  refused(t, ['--authorization-mode', 'Webhook'], "authorization-mode Webhook's authorization config file not passed");
  refused(t, ['--authorization-webhook-config-file', kubeconfig], 'cannot specify --authorization-webhook-config-file without mode Webhook');
  refused(t, ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${kubeconfig}`, '--authorization-webhook-version=v2'], 'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"');
  refused(
    t,
    ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${kubeconfig}`, '--authorization-webhook-cache-authorized-ttl=soon'],
    'invalid argument "soon" for "--authorization-webhook-cache-authorized-ttl" flag: time: invalid duration "soon"',
  );
  const missing = join(dir, 'missing.kubeconfig');
  refused(t, ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${missing}`], `--authorization-webhook-config-file ${missing}: open ${missing}: no such file or directory`);
});

test('--authorization-config: read now, exclusive with --authorization-mode and the webhook flags', (t) => {
  const opts = parse(['--authorization-config', authzConfig]);
  t.deepEqual(opts.authorizationModes, []);
  t.is(opts.authorizationConfig?.configFile, authzConfig);
  t.deepEqual(opts.authorizationConfig?.initial.authorizers, [{ type: 'RBAC', name: 'rbac' }]);
  const exclusive = '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined';
  refused(t, ['--authorization-config', authzConfig, '--authorization-mode', 'RBAC'], exclusive);
  refused(t, ['--authorization-config', authzConfig, '--authorization-webhook-cache-authorized-ttl', '1s'], exclusive);
  const bad = join(dir, 'bad-authz.yaml');
  writeFileSync(bad, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers: []\n');
  refused(t, ['--authorization-config', bad], `--authorization-config ${bad}: authorizers: Required value: at least one authorization mode must be defined`);
});

test('--authorization-kubeconfig: delegation with k8s.io/apiserver\'s defaults, instead of local modes', (t) => {
  const opts = parse(['--authorization-kubeconfig', kubeconfig]);
  t.deepEqual(opts.authorizationModes, []);
  t.like(opts.delegatedAuthorization, { authorizedTtlMs: 10_000, unauthorizedTtlMs: 10_000, alwaysAllowPaths: ['/healthz', '/readyz', '/livez'], alwaysAllowGroups: ['system:masters'] });
  const given = parse([
    `--authorization-kubeconfig=${kubeconfig}`,
    '--authorization-always-allow-paths=/healthz,/custom/*',
    '--authorization-always-allow-groups=',
    '--authorization-webhook-cache-authorized-ttl=1m',
  ]);
  t.like(given.delegatedAuthorization, { authorizedTtlMs: 60_000, alwaysAllowPaths: ['/healthz', '/custom/*'], alwaysAllowGroups: [] });
  refused(t, ['--authorization-kubeconfig', kubeconfig, '--authorization-mode', 'RBAC'], '--authorization-kubeconfig replaces the local authorizers: it can not be specified with --authorization-mode');
  refused(t, ['--authorization-kubeconfig', kubeconfig, '--authorization-config', authzConfig], '--authorization-kubeconfig and --authorization-config can not be specified together');
  refused(t, ['--authorization-kubeconfig', kubeconfig, '--authorization-always-allow-paths', '/a*/b'], '--authorization-always-allow-paths: only trailing * allowed in "a*/b"');
  refused(t, ['--authorization-always-allow-groups', 'x'], '--authorization-always-allow-groups is only used with --authorization-kubeconfig');
});
