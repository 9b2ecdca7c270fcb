/**
 * An issuer's signing keys, found as go-oidc finds them: the OpenID discovery document at
 * `{issuer}/.well-known/openid-configuration` (or the configured discoveryURL), whose `issuer` must be the configured
 * one, names the `jwks_uri`; the key set is fetched from there and refetched when a token names a key it lacks (jose's
 * remote key set). Over HTTPS, trusting the configured certificate authority, else the system's roots.
 */
import https from 'node:https';
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey } from 'jose';

/** kube's http.Client timeout for the issuer's endpoints. */
const requestTimeoutMs = 30_000;
/** The most of a discovery document or key set read. */
const maxBodyBytes = 1024 * 1024;

export interface IssuerEndpoint {
  url: string;
  discoveryURL?: string;
  certificateAuthority?: string;
}

/** GETs `url` over HTTPS trusting `ca` (PEM) when given: status and body. */
function httpsGet(url: string, ca: string | undefined, signal?: AbortSignal): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ...(ca ? { ca } : {}), timeout: requestTimeoutMs, headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBodyBytes) req.destroy(new Error(`response from ${url} exceeds ${maxBodyBytes} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${requestTimeoutMs} ms fetching ${url}`)));
    req.on('error', reject);
  });
}

/** The issuer's key set, once its discovery document was read; throws go-oidc's errors. */
export async function discoverIssuerKeys(issuer: IssuerEndpoint): Promise<JWTVerifyGetKey> {
  const discovery = issuer.discoveryURL ?? `${issuer.url.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const res = await httpsGet(discovery, issuer.certificateAuthority);
  if (res.status !== 200) throw new Error(`${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
  let doc: { issuer?: unknown; jwks_uri?: unknown };
  try {
    doc = JSON.parse(res.body.toString('utf8'));
  } catch (err) {
    throw new Error(`oidc: failed to decode provider discovery object: ${(err as Error).message}`);
  }
  if (doc.issuer !== issuer.url) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${issuer.url}" got "${String(doc.issuer)}"`);
  if (typeof doc.jwks_uri !== 'string') throw new Error('oidc: provider discovery object has no jwks_uri');
  const fetchKeys: FetchImplementation = async (url, options) => {
    const got = await httpsGet(url, issuer.certificateAuthority, options.signal);
    return new Response(new Uint8Array(got.body), { status: got.status, headers: { 'content-type': 'application/json' } });
  };
  return createRemoteJWKSet(new URL(doc.jwks_uri), { [customFetch]: fetchKeys, timeoutDuration: requestTimeoutMs });
}
