import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { ApiError } from '../../../../core/contracts/api-error.js';
import type { KubeObject } from '../../../../core/contracts/resource-type.js';
import { ServiceAccountTokenAuthenticator } from '../../../../plugins/auth/service-account-token-authenticator.js';
import { serviceAccountClaims } from '../../../../lib/serviceaccount/token-claims.js';
import { signServiceAccountToken } from '../../../../lib/serviceaccount/token-signing.js';
import { fakeObjects } from '../../../helpers/fake-objects.js';

const issuer = 'https://kubernetes.default.svc.cluster.local';
const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const config = { issuers: [issuer], audiences: [issuer], signingKey, verificationKeys: [], maxExpirationSeconds: 0 };

async function secretBoundToken(): Promise<string> {
  const claims = serviceAccountClaims({
    issuer,
    audiences: [issuer],
    namespace: 'default',
    serviceAccount: { name: 'robot', uid: 'sa-uid' },
    secret: { name: 'creds', uid: 'secret-uid' },
    now: Math.floor(Date.now() / 1000),
    expirationSeconds: 3600,
  });
  return signServiceAccountToken(claims, signingKey);
}

const account: [string, KubeObject] = ['serviceaccounts/default/robot', { metadata: { name: 'robot', namespace: 'default', uid: 'sa-uid' } }];
const request = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

test('a token bound to a Secret authenticates while that Secret exists with its uid', async (t) => {
  const token = await secretBoundToken();
  const live = new ServiceAccountTokenAuthenticator(config, () => fakeObjects(new Map([account, ['secrets/default/creds', { metadata: { uid: 'secret-uid' } }]])));
  t.like(await live.authenticate(request(token)), { username: 'system:serviceaccount:default:robot', uid: 'sa-uid' });
  for (const secrets of [[], [['secrets/default/creds', { metadata: { uid: 'new-uid' } }]], [['secrets/default/creds', { metadata: { uid: 'secret-uid', deletionTimestamp: '2026-01-01T00:00:00Z' } }]]] as [string, KubeObject][][]) {
    const auth = new ServiceAccountTokenAuthenticator(config, () => fakeObjects(new Map([account, ...secrets])));
    await t.throwsAsync(auth.authenticate(request(token)), { instanceOf: ApiError, message: 'Unauthorized' }, JSON.stringify(secrets));
  }
});

test('bearers that are not ServiceAccount tokens are left to the other authenticators', async (t) => {
  const auth = new ServiceAccountTokenAuthenticator(config, () => fakeObjects(new Map()));
  t.is(await auth.authenticate(request('0123456789abcdef')), null);
  t.is(await auth.authenticate({ headers: {} }), null);
});
