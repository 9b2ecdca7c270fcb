import https from 'node:https';
import http from 'node:http';

/** Where a webhook listens: admissionregistration/apiextensions `WebhookClientConfig` (only `url` can be dialled). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of PEM CA certificates that sign the webhook's serving certificate (system roots when absent). */
  caBundle?: string;
}

/** A webhook call that did not produce a response: the text is Go's `Post "<url>": <cause>`, as kube reports it. */
export class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'WebhookCallError';
  }
}

export interface WebhookResponse {
  status: number;
  body: Buffer;
}

/** Webhook responses larger than this are refused rather than buffered (a misbehaving webhook must not exhaust memory). */
const maxResponseBytes = 32 * 1024 * 1024;

/** One keep-alive agent per CA bundle, so repeated calls reuse TLS sessions (a webhook call must cost ~1 ms). */
const agents = new Map<string, https.Agent>();

function agentFor(caBundle: string | undefined): https.Agent {
  const key = caBundle ?? '';
  let agent = agents.get(key);
  if (!agent) {
    const ca = caBundle ? Buffer.from(caBundle, 'base64').toString('utf8') : undefined;
    agent = new https.Agent({ keepAlive: true, maxSockets: 64, ...(ca ? { ca } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

/** Go's wording of a transport failure, so messages read as kube-apiserver's do. */
function goCause(err: NodeJS.ErrnoException, url: URL): string {
  const hostPort = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${hostPort}: connect: connection refused`;
    case 'ECONNRESET':
      return `read tcp ${hostPort}: read: connection reset by peer`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is not valid for ${url.hostname}`;
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    default:
      return err.message;
  }
}

/**
 * POSTs a JSON body to a webhook over HTTPS (plain HTTP is allowed for `http:` URLs, which only tests use) and
 * returns the raw answer. kube appends `?timeout=<n>s` to the URL so the webhook knows its deadline; so does this.
 * Transport failures and the deadline throw `WebhookCallError`.
 */
export function postWebhook(config: WebhookClientConfig, body: unknown, timeoutMs: number): Promise<WebhookResponse> {
  if (!config.url) {
    return Promise.reject(new WebhookCallError('webhook clientConfig.service is not supported by kapi (no Services to route to): use clientConfig.url', false));
  }
  const url = new URL(config.url);
  url.searchParams.set('timeout', `${Math.max(1, Math.round(timeoutMs / 1000))}s`);
  const payload = Buffer.from(JSON.stringify(body));
  const post = `Post "${url.href}"`;
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new WebhookCallError(`${post}: ${message}`, timedOut));
    };
    const options: https.RequestOptions = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': payload.length },
      ...(secure ? { agent: agentFor(config.caBundle) } : {}),
    };
    const req = (secure ? https : http).request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxResponseBytes) fail(`response body larger than ${maxResponseBytes} bytes`, false);
        else chunks.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
      res.on('error', (err) => fail(goCause(err, url), false));
    });
    // One deadline for the whole exchange (connect, TLS, response), as Go's request context.
    const timer = setTimeout(() => fail('context deadline exceeded', true), timeoutMs);
    req.on('error', (err) => fail(goCause(err, url), false));
    req.end(payload);
  });
}
