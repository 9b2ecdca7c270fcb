// SubjectAccessReview webhooks for authorization tests, served by the test webhook server (webhook-server.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { tempDir } from './kapi-process.js';
import type { TestWebhookServer, WebhookHandler } from './webhook-server.js';

/** Writes a kubeconfig whose server is `path` on the test webhook server (its CA, a bearer token); returns its path. */
export function writeWebhookKubeconfig(hooks: TestWebhookServer, path: string, user: Record<string, unknown> = { token: 'apiserver-token' }): string {
  const file = join(tempDir('kapi-authz-webhook-'), 'webhook.kubeconfig');
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'authz', cluster: { server: hooks.url(path), 'certificate-authority-data': hooks.caBundle } }],
      users: [{ name: 'apiserver', user }],
      contexts: [{ name: 'authz', context: { cluster: 'authz', user: 'apiserver' } }],
      'current-context': 'authz',
    }),
  );
  return file;
}

/** A SubjectAccessReview answering `review` (its apiVersion) with `status`. */
export function reviewAnswer(review: any, status: Record<string, unknown>) {
  return { json: { apiVersion: review?.apiVersion ?? 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status } };
}

/** Allows what `allow(spec)` says, with a reason; otherwise no opinion (or denied, when `deny(spec)`). */
export function reviewer(allow: (spec: any) => boolean, deny: (spec: any) => boolean = () => false): WebhookHandler {
  return (review) => {
    const spec = review?.spec ?? {};
    if (allow(spec)) return reviewAnswer(review, { allowed: true, reason: 'the webhook allows it' });
    if (deny(spec)) return reviewAnswer(review, { allowed: false, denied: true, reason: 'the webhook denies it' });
    return reviewAnswer(review, { allowed: false, reason: 'the webhook has no opinion' });
  };
}
