import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import YAML from 'yaml';
import { getWebhook, postWebhook, type WebhookCredentials, type WebhookResponse, type ServiceEndpointResolver } from '../../lib/webhook/webhook-client.js';
import { log } from '../../lib/log/logger.js';

/** A kubeconfig kapi cannot call out with; the message says why, in client-go's words where it has them. */
export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';
}

/** Where a kubeconfig's current context points and with which credentials (client-go's rest.Config, the parts kapi uses). */
export interface KubeconfigTarget {
  /** The cluster's `server` URL. */
  server: string;
  /** PEM CA certificates the server's certificate must chain to (system roots when absent). */
  caPem?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  /** The user's `token`. */
  token?: string;
  /** Absolute; the user's `tokenFile`, read again as it changes (bound tokens are rotated). */
  tokenFile?: string;
}

/** A client of the server a kubeconfig names: POSTs JSON to it (the webhook client of lib/webhook does the HTTP). */
export interface KubeconfigClient {
  readonly target: KubeconfigTarget;
  /**
   * POSTs `body` as JSON to the server URL, or to `path` after it when given (an API path such as
   * `/apis/authorization.k8s.io/v1/subjectaccessreviews`), within `timeoutMs`. Throws `WebhookCallError` when no
   * answer came.
   */
  post(body: unknown, timeoutMs: number, path?: string): Promise<WebhookResponse>;
  /** GETs `path` (an API path such as `/api/v1/namespaces/kube-system/configmaps/x`) on the server's host, within `timeoutMs`. */
  get(path: string, timeoutMs: number): Promise<WebhookResponse>;
}

/** Reads a kubeconfig file and returns a client of its current context's cluster, as that context's user. */
export function readKubeconfigClient(file: string): KubeconfigClient {
  return kubeconfigClient(readKubeconfigTarget(file));
}

/** A client of a kubeconfig's target (a tokenFile is read again each minute, as client-go's cached token source). */
export function kubeconfigClient(target: KubeconfigTarget): KubeconfigClient {
  const tokenOf = target.tokenFile ? tokenFileReader(target.tokenFile) : () => target.token;
  const caBundle = target.caPem ? Buffer.from(target.caPem).toString('base64') : undefined;
  // an API path goes after the server URL's own path, as client-go's rest client puts it
  const at = (path: string | undefined) => ({ url: path === undefined ? target.server : `${target.server.replace(/\/+$/, '')}${path}`, ...(caBundle ? { caBundle } : {}) });
  const credentials = (): WebhookCredentials => {
    const token = tokenOf();
    return {
      insecureSkipTlsVerify: target.insecureSkipTlsVerify,
      ...(target.tlsServerName ? { tlsServerName: target.tlsServerName } : {}),
      ...(target.clientCertPem && target.clientKeyPem ? { clientCertPem: target.clientCertPem, clientKeyPem: target.clientKeyPem } : {}),
      ...(token ? { bearerToken: token } : {}),
    };
  };
  return {
    target,
    post: (body, timeoutMs, path) => postWebhook(at(path), body, timeoutMs, noServices, credentials()),
    get: (path, timeoutMs) => getWebhook(at(path), timeoutMs, credentials()),
  };
}

/** A kubeconfig names its server by URL, never by Service. */
const noServices: ServiceEndpointResolver = {
  resolveEndpoint: () => Promise.reject(new Error('a kubeconfig server is a URL')),
};

/** How long a tokenFile's contents are used before the file is read again (client-go's cached token source: a minute). */
const tokenFileTtlMs = 60_000;

function tokenFileReader(path: string): () => string | undefined {
  let token = readTokenFile(path);
  let readAt = Date.now();
  return () => {
    if (Date.now() - readAt >= tokenFileTtlMs) {
      readAt = Date.now();
      try {
        token = readTokenFile(path);
      } catch (err) {
        log.error(`keeping the token read before from ${path}: ${(err as Error).message}`);
      }
    }
    return token;
  };
}

function readTokenFile(path: string): string {
  return readFileSync(path, 'utf8').trim();
}

/**
 * The current context's cluster and user of a kubeconfig file, checked as client-go's clientcmd checks a config
 * before using it (ConfirmUsable); relative file paths in it are relative to the kubeconfig's folder, as in clientcmd.
 */
export function readKubeconfigTarget(file: string): KubeconfigTarget {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new KubeconfigError(fsMessage(err, file));
  }
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    throw new KubeconfigError(`error loading config file "${file}": ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) throw invalid(['no configuration has been provided']);
  if (!isObject(doc)) throw new KubeconfigError(`error loading config file "${file}": not a kubeconfig (a YAML mapping with clusters, users and contexts)`);
  const base = dirname(resolve(file));
  const clusters = namedList(doc, 'clusters', 'cluster');
  const users = namedList(doc, 'users', 'user');
  const contexts = namedList(doc, 'contexts', 'context');
  if (clusters.size === 0 && users.size === 0 && contexts.size === 0) throw invalid(['no configuration has been provided']);
  const contextName = typeof doc['current-context'] === 'string' ? doc['current-context'] : '';
  if (contextName === '') throw invalid(['no context chosen']);
  const context = contexts.get(contextName);
  if (!context) throw invalid([`context was not found for specified context: ${contextName}`]);
  const errors: string[] = [];
  const clusterName = stringField(context, 'cluster');
  const userName = stringField(context, 'user');
  if (!userName) errors.push(`user was not specified for context ${JSON.stringify(contextName)}`);
  else if (!users.has(userName)) errors.push(`user ${JSON.stringify(userName)} was not found for context ${JSON.stringify(contextName)}`);
  if (!clusterName) errors.push(`cluster was not specified for context ${JSON.stringify(contextName)}`);
  else if (!clusters.has(clusterName)) errors.push(`cluster ${JSON.stringify(clusterName)} was not found for context ${JSON.stringify(contextName)}`);
  if (errors.length || !clusterName || !userName) throw invalid(errors);
  const target = { ...clusterTarget(clusterName, clusters.get(clusterName)!, base, errors), ...userCredentials(userName, users.get(userName)!, base, errors) };
  if (errors.length) throw invalid(errors);
  return target;
}

function clusterTarget(name: string, cluster: Record<string, unknown>, base: string, errors: string[]): Pick<KubeconfigTarget, 'server' | 'caPem' | 'insecureSkipTlsVerify' | 'tlsServerName'> {
  const server = stringField(cluster, 'server');
  if (!server) errors.push(`no server found for cluster ${JSON.stringify(name)}`);
  else if (!/^https?:\/\//.test(server) || !URL.canParse(server)) errors.push(`server ${JSON.stringify(server)} of cluster ${JSON.stringify(name)} must be an http:// or https:// URL`);
  if ('proxy-url' in cluster) errors.push(`proxy-url of cluster ${JSON.stringify(name)} is not supported by kapi`);
  const caFile = stringField(cluster, 'certificate-authority');
  const caData = stringField(cluster, 'certificate-authority-data');
  if (caFile && caData) errors.push(`certificate-authority-data and certificate-authority are both specified for ${name}. certificate-authority-data will override.`);
  const caPem = caData ? base64Field(caData, `certificate-authority-data of cluster ${JSON.stringify(name)}`, errors) : caFile ? readReferenced(base, caFile, `certificate-authority ${caFile} for ${name}`, errors) : undefined;
  const insecure = cluster['insecure-skip-tls-verify'] === true;
  if (insecure && (caFile || caData)) errors.push('specifying a root certificates file with the insecure flag is not allowed');
  const tlsServerName = stringField(cluster, 'tls-server-name');
  return { server: server ?? '', insecureSkipTlsVerify: insecure, ...(caPem ? { caPem } : {}), ...(tlsServerName ? { tlsServerName } : {}) };
}

function userCredentials(name: string, user: Record<string, unknown>, base: string, errors: string[]): Pick<KubeconfigTarget, 'clientCertPem' | 'clientKeyPem' | 'token' | 'tokenFile'> {
  for (const unsupported of ['exec', 'auth-provider', 'username', 'password', 'as', 'as-groups']) {
    if (unsupported in user) errors.push(`${unsupported} of user ${JSON.stringify(name)} is not supported by kapi: use token, tokenFile or a client certificate`);
  }
  const certFile = stringField(user, 'client-certificate');
  const certData = stringField(user, 'client-certificate-data');
  const keyFile = stringField(user, 'client-key');
  const keyData = stringField(user, 'client-key-data');
  const out: Pick<KubeconfigTarget, 'clientCertPem' | 'clientKeyPem' | 'token' | 'tokenFile'> = {};
  if (certFile || certData) {
    if (certFile && certData) errors.push(`client-cert-data and client-cert are both specified for ${name}. client-cert-data will override.`);
    if (keyFile && keyData) errors.push(`client-key-data and client-key are both specified for ${name}; client-key-data will override`);
    if (!keyFile && !keyData) errors.push(`client-key-data or client-key must be specified for ${name} to use the clientCert authentication method.`);
    const cert = certData ? base64Field(certData, `client-certificate-data of user ${JSON.stringify(name)}`, errors) : readReferenced(base, certFile!, `client-cert ${certFile} for ${name}`, errors);
    const key = keyData ? base64Field(keyData, `client-key-data of user ${JSON.stringify(name)}`, errors) : keyFile ? readReferenced(base, keyFile, `client-key ${keyFile} for ${name}`, errors) : undefined;
    if (cert && key) Object.assign(out, { clientCertPem: cert, clientKeyPem: key });
  } else if (keyFile || keyData) {
    errors.push(`client-key of user ${JSON.stringify(name)} is given without a client-certificate`);
  }
  const token = stringField(user, 'token');
  const tokenFile = stringField(user, 'tokenFile');
  // client-go reads a tokenFile over a token (the file is kept fresh; the token is only its first value)
  if (token && !tokenFile) out.token = token;
  else if (tokenFile) {
    const path = resolve(base, tokenFile);
    try {
      readTokenFile(path);
      out.tokenFile = path;
    } catch (err) {
      errors.push(`tokenFile of user ${JSON.stringify(name)}: ${fsMessage(err, path)}`);
    }
  }
  return out;
}

/** client-go's errConfigurationInvalid: `invalid configuration: <one>` or `[<a>, <b>]`. */
function invalid(errors: string[]): KubeconfigError {
  return new KubeconfigError(`invalid configuration: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`);
}

/** A kubeconfig's `clusters`/`users`/`contexts` list as a map from name to the entry's inner object. */
function namedList(doc: Record<string, unknown>, list: string, inner: string): Map<string, Record<string, unknown>> {
  const entries = doc[list];
  const out = new Map<string, Record<string, unknown>>();
  if (!Array.isArray(entries)) return out;
  for (const entry of entries as unknown[]) {
    if (!isObject(entry) || typeof entry.name !== 'string') continue;
    const value = entry[inner];
    out.set(entry.name, isObject(value) ? value : {});
  }
  return out;
}

function readReferenced(base: string, file: string, what: string, errors: string[]): string | undefined {
  const path = resolve(base, file);
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    errors.push(`unable to read ${what} due to ${fsMessage(err, path)}`);
    return undefined;
  }
}

function base64Field(value: string, what: string, errors: string[]): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value.replace(/\s/g, ''))) {
    errors.push(`${what} is not base64`);
    return undefined;
  }
  return Buffer.from(value, 'base64').toString('utf8');
}

function stringField(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's os error text: `open <path>: no such file or directory`. */
function fsMessage(err: unknown, path: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `open ${path}: no such file or directory`;
  if (code === 'EACCES') return `open ${path}: permission denied`;
  if (code === 'EISDIR') return `read ${path}: is a directory`;
  return (err as Error).message;
}
