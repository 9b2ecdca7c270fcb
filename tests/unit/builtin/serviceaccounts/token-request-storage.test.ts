import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt } from 'jose';
import { ApiError } from '../../../../core/contracts/api-error.js';
import type { ResourceRegistry } from '../../../../core/contracts/resource-registry.js';
import type { KubeObject, ResourceType } from '../../../../core/contracts/resource-type.js';
import type { RestContext } from '../../../../core/contracts/rest-storage.js';
import { TokenRequestStorage } from '../../../../builtin/serviceaccounts/token-request-storage.js';
import { fakeObjects } from '../../../helpers/fake-objects.js';

const issuer = 'https://kubernetes.default.svc.cluster.local';
const config = {
  issuers: [issuer],
  audiences: [issuer],
  signingKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
  verificationKeys: [],
  maxExpirationSeconds: 0,
};
const objects = new Map<string, KubeObject>([
  ['serviceaccounts/default/robot', { metadata: { name: 'robot', namespace: 'default', uid: 'sa-uid' } }],
  ['secrets/default/creds', { metadata: { name: 'creds', namespace: 'default', uid: 'secret-uid' } }],
]);
/** A registry that serves Secrets, or none. */
const registry = (secrets: boolean) => ({ lookup: (g: string, v: string, p: string) => (secrets && g === '' && v === 'v1' && p === 'secrets' ? ({} as ResourceType) : undefined) }) as ResourceRegistry;
const ctx: RestContext = { namespace: 'default', name: 'robot', user: { username: 'u', groups: [] }, signal: new AbortController().signal, dryRun: false };
const request = (boundObjectRef: Record<string, string>) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { boundObjectRef } });

test('a token bound to a Secret names it in its claims; the answer keeps the reference', async (t) => {
  const storage = new TokenRequestStorage(config, () => fakeObjects(objects), () => registry(true));
  const ref = { apiVersion: 'v1', kind: 'Secret', name: 'creds', uid: 'secret-uid' };
  const answer = (await storage.create(ctx, request(ref))) as { spec: { boundObjectRef: unknown }; status: { token: string } };
  t.deepEqual(answer.spec.boundObjectRef, ref);
  t.deepEqual(decodeJwt(answer.status.token)['kubernetes.io'], { namespace: 'default', secret: { name: 'creds', uid: 'secret-uid' }, serviceaccount: { name: 'robot', uid: 'sa-uid' } });
});

test('the bound Secret must exist and have the uid given, as kube answers', async (t) => {
  const storage = new TokenRequestStorage(config, () => fakeObjects(objects), () => registry(true));
  const missing = await t.throwsAsync(storage.create(ctx, request({ apiVersion: 'v1', kind: 'Secret', name: 'gone' })), { instanceOf: ApiError });
  t.like(missing, { code: 404, message: 'secrets "gone" not found' });
  const other = await t.throwsAsync(storage.create(ctx, request({ apiVersion: 'v1', kind: 'Secret', name: 'creds', uid: 'old-uid' })), { instanceOf: ApiError });
  t.like(other, {
    code: 409,
    reason: 'Conflict',
    message:
      'Operation cannot be fulfilled on Secret "creds": the UID in the bound object reference (old-uid) does not match the UID in record. The object might have been deleted and then recreated',
  });
});

test('without Secrets served, binding to one is refused as binding to a kind kube does not know', async (t) => {
  const storage = new TokenRequestStorage(config, () => fakeObjects(objects), () => registry(false));
  const err = await t.throwsAsync(storage.create(ctx, request({ apiVersion: 'v1', kind: 'Secret', name: 'creds' })), { instanceOf: ApiError });
  t.like(err, { code: 400, message: 'cannot bind token to object of type /v1, Kind=Secret' });
});
