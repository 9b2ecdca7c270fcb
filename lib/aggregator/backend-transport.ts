import https from 'node:https';

/** What an APIService with a `service` says about reaching its aggregated API server. */
export interface AggregatedBackend {
  /** The APIService's name (`<version>.<group>`). */
  name: string;
  service: { namespace: string; name: string; port: number };
  /** `spec.caBundle` decoded: the PEM CA certificates the server's certificate must chain to (absent: the system's). */
  caBundle?: string;
  /** `spec.insecureSkipTLSVerify`. */
  insecureSkipTLSVerify?: boolean;
}

/** The client certificate the front presents to aggregated API servers (`--proxy-client-cert-file`/`--proxy-client-key-file`). */
export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

/** The name an aggregated API server's certificate must be valid for, as kube's aggregator verifies it: `<name>.<namespace>.svc`. */
export function backendServerName(backend: AggregatedBackend): string {
  return `${backend.service.name}.${backend.service.namespace}.svc`;
}

/** Keep-alive agents per TLS configuration, so requests to a backend reuse connections and TLS sessions. */
const agents = new Map<string, https.Agent>();
/** More configurations than this (APIServices rewritten again and again) and the old agents are dropped. */
const maxAgents = 256;

function cachedAgent(key: string, make: () => https.Agent): https.Agent {
  let agent = agents.get(key);
  if (!agent) {
    if (agents.size >= maxAgents) {
      for (const old of agents.values()) old.destroy();
      agents.clear();
    }
    agent = make();
    agents.set(key, agent);
  }
  return agent;
}

/**
 * The TLS side of a request to an aggregated API server, as kube's aggregator configures its transport per APIService:
 * the server's certificate verified against `caBundle` for `<name>.<namespace>.svc` (sent as SNI too) unless
 * `insecureSkipTLSVerify`, and the front-proxy client certificate presented. HTTP/1.1 (Node's https), so watches and
 * long responses stream over their own connection.
 */
export function backendTlsOptions(backend: AggregatedBackend, client: ProxyClientCertificate | undefined): https.RequestOptions {
  const servername = backendServerName(backend);
  const insecure = backend.insecureSkipTLSVerify === true;
  const ca = backend.caBundle || undefined;
  const key = JSON.stringify([servername, insecure, ca ?? '', client?.certPem ?? '']);
  const agent = cachedAgent(key, () => new https.Agent({ keepAlive: true, maxSockets: 256, rejectUnauthorized: !insecure, ...(ca ? { ca } : {}), ...(client ? { cert: client.certPem, key: client.keyPem } : {}) }));
  return { agent, servername };
}

/**
 * The TLS side of kube's availability check: it presents the front-proxy client certificate and verifies nothing ("if
 * someone owns the network and messes with your status that's not so bad"); a wrong caBundle shows on requests instead.
 * A new connection each check, as kube builds a new transport for each.
 */
export function discoveryCheckTlsOptions(client: ProxyClientCertificate | undefined): https.RequestOptions {
  return { agent: false, rejectUnauthorized: false, ...(client ? { cert: client.certPem, key: client.keyPem } : {}) };
}
