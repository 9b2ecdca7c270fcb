// The AuthorizationConfiguration file (--authorization-config): what it decodes to, and kube's validation messages.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { AuthorizationConfigError, parseAuthorizationConfiguration, type WebhookAuthorizerConfig } from '../../../../plugins/auth/authorization-configuration.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-authz-config-'));
const kubeconfig = join(dir, 'webhook.kubeconfig');
writeFileSync(
  kubeconfig,
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: 'https://authz.example/authorize', 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'u', user: { token: 't' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  }),
);

const webhook = (fields: Record<string, unknown> = {}) => ({
  type: 'Webhook',
  name: 'hook',
  webhook: {
    timeout: '3s',
    subjectAccessReviewVersion: 'v1',
    failurePolicy: 'Deny',
    connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
    ...fields,
  },
});

const config = (authorizers: unknown[], apiVersion = 'apiserver.config.k8s.io/v1') => stringify({ apiVersion, kind: 'AuthorizationConfiguration', authorizers });

const refused = (t: import('ava').ExecutionContext, text: string, message: string | RegExp) => t.throws(() => parseAuthorizationConfiguration(text), { instanceOf: AuthorizationConfigError, message });

test('authorizers in order; a webhook with v1\'s defaults (5m, 30s, both cached); every apiVersion kube 1.32 reads', (t) => {
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    const [rbac, hook, deny] = parseAuthorizationConfiguration(config([{ type: 'RBAC', name: 'rbac' }, webhook(), { type: 'AlwaysDeny', name: 'deny' }], `apiserver.config.k8s.io/${version}`));
    t.deepEqual(rbac, { type: 'RBAC', name: 'rbac' });
    t.like(hook, { type: 'Webhook', name: 'hook', timeoutMs: 3000, subjectAccessReviewVersion: 'v1', failurePolicy: 'Deny', authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 });
    t.is((hook as WebhookAuthorizerConfig).client.target.server, 'https://authz.example/authorize');
    t.deepEqual(deny, { type: 'AlwaysDeny', name: 'deny' });
  }
  const [hook] = parseAuthorizationConfiguration(config([webhook({ authorizedTTL: '1m', unauthorizedTTL: '10s', cacheUnauthorizedRequests: false, matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: [{ expression: "request.user != 'x'" }] })]));
  t.like(hook, { authorizedTtlMs: 60_000, unauthorizedTtlMs: 0 });
  t.is((hook as WebhookAuthorizerConfig).matchConditions.size, 1);
});

test('kube\'s validation messages', (t) => {
  refused(t, config([]), 'authorizers: Required value: at least one authorization mode must be defined');
  refused(t, config([{ type: 'Magic', name: 'm' }]), 'authorizers[0].type: Unsupported value: "Magic": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"');
  refused(t, config([{ type: 'RBAC', name: 'a' }, { type: 'RBAC', name: 'b' }]), 'authorizers[1].type: Duplicate value: "RBAC"');
  refused(t, config([webhook(), { ...webhook(), name: 'hook' }]), 'authorizers[1].name: Duplicate value: "hook"');
  refused(t, config([{ type: 'RBAC' }]), 'authorizers[0].name: Required value');
  refused(t, config([{ type: 'RBAC', name: 'Not_A_Name' }]), /^authorizers\[0\]\.name: Invalid value: "Not_A_Name": authorizer name is invalid: a lowercase RFC 1123 subdomain/);
  refused(t, config([{ type: 'Webhook', name: 'w' }]), 'authorizers[0].webhook: Required value: required when type=Webhook');
  refused(t, config([{ type: 'RBAC', name: 'r', webhook: {} }]), 'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook');
  refused(t, config([webhook({ timeout: '45s' })]), 'authorizers[0].timeout: Invalid value: "45s": must be > 0s and <= 30s');
  refused(t, config([webhook({ timeout: undefined })]), 'authorizers[0].timeout: Required value');
  refused(t, config([webhook({ subjectAccessReviewVersion: 'v2' })]), 'authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"');
  refused(t, config([webhook({ failurePolicy: 'Allow' })]), 'authorizers[0].failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny"');
  refused(t, config([webhook({ matchConditions: [{ expression: 'true' }] })]), 'authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified');
  refused(t, config([webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: 'relative.yaml' } })]), 'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "relative.yaml": must be an absolute path');
  refused(t, config([webhook({ connectionInfo: { type: 'KubeConfigFile' } })]), 'authorizers[0].connectionInfo.kubeConfigFile: Required value');
  refused(
    t,
    config([webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/nowhere/kubeconfig' } })]),
    'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "/nowhere/kubeconfig": error loading file: open /nowhere/kubeconfig: no such file or directory',
  );
  refused(t, config([webhook({ timeout: '45s', failurePolicy: '' })]), '[authorizers[0].timeout: Invalid value: "45s": must be > 0s and <= 30s, authorizers[0].failurePolicy: Required value]');
  refused(t, config([{ type: 'RBAC', name: 'r', extra: true }]), 'strict decoding error: unknown field "authorizers[0].extra"');
  refused(t, stringify({ apiVersion: 'apiserver.config.k8s.io/v2', kind: 'AuthorizationConfiguration', authorizers: [] }), 'failed to decode authorization configuration: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v2"');
});

test('match conditions: non-empty, distinct, compiling to bool, at most 64', (t) => {
  const withConditions = (...expressions: string[]) => config([webhook({ matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: expressions.map((expression) => ({ expression })) })]);
  refused(t, withConditions(' '), 'authorizers[0].matchConditions[0].expression: Required value');
  refused(t, withConditions('true', 'true'), 'authorizers[0].matchConditions[1].expression: Duplicate value: "true"');
  refused(t, withConditions("request.user + 'x'"), 'authorizers[0].matchConditions[0].expression: Invalid value: "request.user + \'x\'": must evaluate to bool');
  refused(t, withConditions('request.nope == 1'), /^authorizers\[0\]\.matchConditions\[0\]\.expression: Invalid value: "request\.nope == 1": compilation failed: ERROR: <input>:1:8: undefined field 'nope'/);
  refused(t, withConditions(...Array.from({ length: 65 }, (_, i) => `request.user != 'u${i}'`)), 'authorizers[0].matchConditions: Too many: 65: must have at most 64 items');
  refused(t, config([webhook({ matchConditionSubjectAccessReviewVersion: 'v1beta1' })]), 'authorizers[0].matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"');
});

test('what kapi cannot run is refused clearly: Node, ABAC, InClusterConfig', (t) => {
  refused(t, config([{ type: 'Node', name: 'node' }]), 'authorizers[0].type: Node is not supported by kapi: use RBAC, AlwaysAllow, AlwaysDeny or Webhook');
  refused(t, config([{ type: 'ABAC', name: 'abac' }]), 'authorizers[0].type: ABAC is not supported by kapi: use RBAC, AlwaysAllow, AlwaysDeny or Webhook');
  refused(t, config([webhook({ connectionInfo: { type: 'InClusterConfig' } })]), 'authorizers[0].connectionInfo.type: InClusterConfig is not supported by kapi (it does not run in a cluster): use KubeConfigFile');
});
