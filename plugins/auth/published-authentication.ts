import type { X509Certificate } from 'node:crypto';
import type { AuthenticationRequest, Authenticator, UserInfo } from '../../core/contracts/authenticator.js';
import type { Controller } from '../../core/contracts/controller.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import { authenticationConfigMap, readClusterAuthenticationInfo, type ClusterAuthenticationInfo } from '../../lib/k8s/cluster-authentication-info.js';
import { restResultError } from '../../lib/webhook/webhook-client.js';
import type { KubeconfigClient } from './kubeconfig-client.js';
import { RequestHeaderAuthenticator } from './request-header-authenticator.js';
import { X509ClientCertAuthenticator } from './x509-client-cert-authenticator.js';
import { log } from '../../lib/log/logger.js';

/** The ConfigMap's path on the front server. */
const configMapPath = `/api/v1/namespaces/${authenticationConfigMap.namespace}/configmaps/${authenticationConfigMap.name}`;
/** k8s.io/apiserver's delegating client timeout. */
const requestTimeoutMs = 10_000;
/** How often the ConfigMap is read again while serving (kube follows it with a watch; a read is as cheap). */
const refreshMs = 10_000;

const nothingPublished: ClusterAuthenticationInfo = {
  clientCa: [],
  requestHeader: { ca: [], allowedNames: [], usernameHeaders: [], groupHeaders: [], extraHeaderPrefixes: [] },
};

/**
 * What a front server publishes in `kube-system/extension-apiserver-authentication`, as an extension API server
 * follows it (k8s.io/apiserver's ConfigMap CA and request-header controllers): read from the front server, and again
 * every few seconds while serving; a read that fails keeps what was read before.
 */
export class PublishedAuthentication implements Controller {
  readonly name = 'published-authentication';
  private info = nothingPublished;
  private requestHeaderAuthenticator?: RequestHeaderAuthenticator;
  private readonly timers = new ControllerTimers();

  constructor(private readonly client: KubeconfigClient) {}

  /**
   * Reads the ConfigMap; one that is not there is nothing published (yet). Throws with client-go's message when the
   * front server cannot be read (unreachable, forbidden) or the ConfigMap does not parse.
   */
  async read(): Promise<void> {
    const res = await this.client.get(configMapPath, requestTimeoutMs);
    if (res.status === 404) return;
    const error = restResultError(res);
    if (error !== undefined) {
      if (res.status === 403) {
        log.error(
          `Unable to get configmap/${authenticationConfigMap.name} in ${authenticationConfigMap.namespace}.  Usually fixed by 'kubectl create rolebinding -n kube-system ROLEBINDING_NAME --role=extension-apiserver-authentication-reader --serviceaccount=YOUR_NS:YOUR_SA'`,
        );
      }
      throw new Error(error);
    }
    const configMap = JSON.parse(res.body.toString('utf8')) as { data?: Record<string, string> } | null;
    const data = configMap?.data ?? {};
    const info = readClusterAuthenticationInfo(data);
    this.info = info;
    // no request-header CA published: no front proxy is trusted
    this.requestHeaderAuthenticator = info.requestHeader.ca.length > 0 ? new RequestHeaderAuthenticator(() => info.requestHeader.ca, info.requestHeader) : undefined;
  }

  /** The client CA certificates published. */
  clientCa(): X509Certificate[] {
    return this.info.clientCa;
  }

  /** The front-proxy authenticator of the request-header configuration published; undefined while none is. */
  requestHeader(): RequestHeaderAuthenticator | undefined {
    return this.requestHeaderAuthenticator;
  }

  async start(): Promise<void> {
    this.refresh();
  }

  async stop(): Promise<void> {
    this.timers.stop();
  }

  private refresh(): void {
    this.timers.after(refreshMs, () => {
      this.read()
        .catch((err: Error) => log.error(`reading ${authenticationConfigMap.namespace}/${authenticationConfigMap.name} from the front server failed (${err.message}); keeping what was read before`))
        .finally(() => this.refresh());
    });
  }
}

export interface PublishedAuthenticationAuthOptions {
  /** Trust the published request-header configuration: front proxies' identity headers. */
  requestHeader: boolean;
  /** Trust client certificates the published client CA signs, and those `alsoTrusted` (this server's own CA) signs. */
  clientCa: boolean;
  alsoTrusted?: () => X509Certificate[];
}

/**
 * Registers the authenticators of what a front server publishes (see PublishedAuthentication, read once before):
 * front-proxy request headers, then client certificates, in kube's order; and the re-reading while serving.
 */
export function publishedAuthenticationAuth(published: PublishedAuthentication, opts: PublishedAuthenticationAuthOptions): Module {
  const requestHeader: Authenticator = {
    name: 'request-header',
    authenticate: (req: AuthenticationRequest): Promise<UserInfo | null> => published.requestHeader()?.authenticate(req) ?? Promise.resolve(null),
  };
  const clientCert = new X509ClientCertAuthenticator(() => [...published.clientCa(), ...(opts.alsoTrusted?.() ?? [])]);
  return defineModule('published-authentication', (container) => {
    if (opts.requestHeader) container.register(Tokens.Authenticator, { useValue: requestHeader });
    if (opts.clientCa) container.register(Tokens.Authenticator, { useValue: clientCert });
    container.register(Tokens.Controller, { useValue: published });
  });
}
