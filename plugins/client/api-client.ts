/**
 * kapi's small HTTP client of a Kubernetes-style API server (kapi or kube-apiserver), built on node:http/node:https,
 * with the server and credentials of a kubeconfig's current context. The typed clients `kapi gen types` writes call
 * the server through it.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { checkServerIdentity } from 'node:tls';
import { readKubeconfigTarget, type KubeconfigTarget } from '../auth/kubeconfig-client.js';
import { responseError } from './response-error.js';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** An API path such as `/apis/example.com/v1/namespaces/default/widgets`. */
  path: string;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** The body's media type (default application/json). */
  contentType?: string;
  signal?: AbortSignal;
}

export class ApiClient {
  private readonly agent: http.Agent;
  private readonly token?: string;

  constructor(readonly target: KubeconfigTarget) {
    const { caPem, clientCertPem, clientKeyPem, insecureSkipTlsVerify, tlsServerName } = target;
    this.agent = target.server.startsWith('https:')
      ? new https.Agent({
          keepAlive: true,
          ...(caPem ? { ca: caPem } : {}),
          ...(clientCertPem && clientKeyPem ? { cert: clientCertPem, key: clientKeyPem } : {}),
          ...(insecureSkipTlsVerify ? { rejectUnauthorized: false } : {}),
          ...(tlsServerName ? { servername: tlsServerName, checkServerIdentity: (_host, cert) => checkServerIdentity(tlsServerName, cert) } : {}),
        })
      : new http.Agent({ keepAlive: true });
    const token = target.token ?? (target.tokenFile ? readFileSync(target.tokenFile, 'utf8').trim() : undefined);
    if (token) this.token = token;
  }

  /**
   * A client of the current context of the kubeconfig at `file`; by default the first file of `$KUBECONFIG`, else
   * `~/.kube/config` (as kubectl; kubeconfig files are not merged).
   */
  static fromKubeconfig(file?: string): ApiClient {
    return new ApiClient(readKubeconfigTarget(file ?? defaultKubeconfigPath()));
  }

  /** Sends the request and resolves with the JSON answer; a non-2xx answer rejects with an ApiError of its Status. */
  async request<T>(req: ApiRequest): Promise<T> {
    const res = await this.send(req);
    const body = await readBody(res);
    return JSON.parse(body.toString('utf8')) as T;
  }

  /**
   * Sends the request and resolves with the response once its headers arrived with a 2xx code (for watches). The
   * connection is not kept for other requests: the server may close it as the stream ends.
   */
  async stream(req: ApiRequest): Promise<IncomingMessage> {
    return this.send(req, { connection: 'close' });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  private send(req: ApiRequest, extraHeaders: Record<string, string> = {}): Promise<IncomingMessage> {
    const url = new URL(req.path, this.target.server);
    for (const [name, value] of Object.entries(req.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (payload) {
      headers['content-type'] = req.contentType ?? 'application/json';
      // explicit: Node frames no body of a DELETE by itself (no chunking for it)
      headers['content-length'] = String(payload.length);
    }
    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const outgoing = send(url, { method: req.method, headers, agent: this.agent, ...(req.signal ? { signal: req.signal } : {}) }, (res) => {
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 300) resolve(res);
        else readBody(res).then((body) => reject(responseError(code, body)), reject);
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }
}

function defaultKubeconfigPath(): string {
  const first = process.env.KUBECONFIG?.split(process.platform === 'win32' ? ';' : ':').find((p) => p !== '');
  return first ?? join(homedir(), '.kube', 'config');
}

function readBody(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}
