// A test OpenID provider for `--authentication-config` JWT authentication: discovery document and JWKS over loopback
// HTTPS with a CA of its own, and a generated RSA key that signs its tokens.
import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { createCa, createServingCert } from '../../plugins/auth/certificates.js';

export interface OidcIssuer {
  /** `https://127.0.0.1:PORT`, the `iss` of its tokens. */
  url: string;
  /** PEM of the CA that signs its serving certificate (the configuration's `certificateAuthority`). */
  caPem: string;
  /** The private key of its one JWK, `kid: k1`, RS256. */
  key: CryptoKey;
  close(): Promise<void>;
}

/** Starts an issuer serving `/.well-known/openid-configuration` and `/keys` (one RSA key); anything else is 404. */
export async function startOidcIssuer(): Promise<OidcIssuer> {
  const ca = await createCa('test-oidc-ca');
  const serving = await createServingCert(ca, '127.0.0.1', ['127.0.0.1']);
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let url = '';
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/keys` }));
    else if (req.url === '/keys') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, caPem: ca.certPem, key: privateKey, close: () => new Promise((r) => server.close(() => r())) };
}
