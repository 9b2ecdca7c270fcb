import test from 'ava';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { keyIdFromPublicKey } from '../../../../lib/serviceaccount/key-id.js';
import { TokenRejected, verifyServiceAccountToken } from '../../../../lib/serviceaccount/token-verification.js';

const issuer = 'https://kubernetes.default.svc.cluster.local';
const now = 1_800_000_000;
const signer = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const settings = { issuers: [issuer], audiences: [issuer], keys: [createPublicKey(other), createPublicKey(signer)], now };

function sign(claims: Record<string, unknown>, opts: { key?: KeyObject; kid?: string | null } = {}): Promise<string> {
  const key = opts.key ?? signer;
  const kid = opts.kid === undefined ? keyIdFromPublicKey(createPublicKey(key)) : opts.kid;
  return new SignJWT({ iss: issuer, aud: [issuer], iat: now, nbf: now, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: 'RS256', ...(kid === null ? {} : { kid }) })
    .sign(key);
}

const rejected = (message: string) => ({ instanceOf: TokenRejected, message });

test('tokens of other issuers, and bearers that are not JWTs, are left to other authenticators', async (t) => {
  t.is(await verifyServiceAccountToken(await sign({ iss: 'https://elsewhere.example.com' }), settings), undefined);
  t.is(await verifyServiceAccountToken('0123456789abcdef', settings), undefined);
  t.is(await verifyServiceAccountToken('{"iss":"x"}.a.b', settings), undefined);
  t.is(await verifyServiceAccountToken('a.%%%.c', settings), undefined);
});

test('the key is picked by kid; without kid every key is tried', async (t) => {
  t.like(await verifyServiceAccountToken(await sign({ sub: 'a' }), settings), { iss: issuer, sub: 'a' });
  t.like(await verifyServiceAccountToken(await sign({ sub: 'b' }, { kid: null }), settings), { sub: 'b' });
  await t.throwsAsync(verifyServiceAccountToken(await sign({}, { kid: 'unknown' }), settings), rejected('invalid signature, no keys found'));
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  await t.throwsAsync(verifyServiceAccountToken(await sign({}, { key: stranger, kid: null }), settings), { instanceOf: TokenRejected });
});

test('audiences: one of the API audiences, or none at all (legacy tokens count as the API audiences)', async (t) => {
  t.truthy(await verifyServiceAccountToken(await sign({ aud: ['vault', issuer] }), settings));
  t.truthy(await verifyServiceAccountToken(await sign({ aud: issuer }), settings));
  t.truthy(await verifyServiceAccountToken(await sign({ aud: undefined }), settings));
  await t.throwsAsync(
    verifyServiceAccountToken(await sign({ aud: ['vault'] }), settings),
    rejected(`token audiences ["vault"] is invalid for the target audiences ["${issuer}"]`),
  );
});

test('exp, nbf and iat with go-jose one-minute leeway', async (t) => {
  t.truthy(await verifyServiceAccountToken(await sign({ exp: now - 60 }), settings));
  await t.throwsAsync(verifyServiceAccountToken(await sign({ exp: now - 61 }), settings), rejected('service account token has expired'));
  t.truthy(await verifyServiceAccountToken(await sign({ nbf: now + 60 }), settings));
  await t.throwsAsync(verifyServiceAccountToken(await sign({ nbf: now + 61 }), settings), rejected('service account token is not valid yet'));
  await t.throwsAsync(verifyServiceAccountToken(await sign({ iat: now + 61, nbf: now }), settings), rejected('service account token is issued in the future'));
});
