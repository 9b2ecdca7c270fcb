import type http from 'node:http';
import type { ServerConfig } from '../contracts/server-config.js';

/**
 * kube-apiserver's connection limits (Go's http.Server ReadHeaderTimeout and IdleTimeout) as Node server options:
 *
 * - the TLS handshake must finish within the header timeout (Node's own default is 120 s; Go bounds the handshake by
 *   ReadHeaderTimeout);
 * - then a complete request header must arrive within it: Node counts from the connection's start (after the
 *   handshake) and, on a kept-alive connection, from a request's first byte; it closes the connection at its next
 *   check, so checks run often;
 * - between requests a kept-alive connection may stay idle for the idle timeout.
 *
 * Nothing bounds a request once its header is in: `server.timeout` (socket inactivity) stays 0, so watches, quiet for
 * minutes between events, are never cut.
 */
export function connectionTimeoutOptions(config: Pick<ServerConfig, 'requestHeaderTimeoutMs' | 'idleConnectionTimeoutMs'>) {
  const headersTimeout = config.requestHeaderTimeoutMs;
  return {
    handshakeTimeout: headersTimeout,
    headersTimeout,
    // Node's limit on receiving a whole request (body included) must not be below the header timeout.
    requestTimeout: Math.max(nodeRequestTimeoutMs, headersTimeout),
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
    keepAliveTimeout: config.idleConnectionTimeoutMs,
  } satisfies http.ServerOptions & { handshakeTimeout: number };
}

/** Node's default limit on receiving a whole request. */
const nodeRequestTimeoutMs = 300_000;
