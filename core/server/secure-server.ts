import { constants } from 'node:crypto';
import http2 from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerConfig } from '../contracts/server-config.js';
import { connectionTimeoutOptions } from './connection-timeouts.js';
import { http1HeaderLimits, http2HeaderLimits } from './request-header-limits.js';
import { tlsServerOptions, type TlsProfile } from './tls-profile.js';

/** kube's MaxConcurrentStreams when `--http2-max-streams-per-connection` is 0 (k8s.io/apiserver's secure serving). */
const defaultMaxStreams = 100;
/**
 * kube's MaxUploadBufferPerStream and MaxReadFrameSize: 256 KiB holds 99% of API request bodies in one frame, and is
 * small enough to be granted to every stream of a connection at once.
 */
const streamWindowBytes = 256 * 1024;

/**
 * Every TLS client is asked for a certificate and none is required, as kube-apiserver asks: a client certificate
 * authenticator verifies what is sent (against its CA, which may change while serving), any other credentials are
 * tried too.
 */
const clientCertificateRequest = { requestCert: true, rejectUnauthorized: false } as const;

/** The HTTP/2 flow-control and stream limits kube-apiserver announces, for a max-streams setting (0: kube's default). */
export function http2Limits(maxStreamsPerConnection: number): { settings: http2.Settings; connectionWindowBytes: number } {
  const maxConcurrentStreams = maxStreamsPerConnection > 0 ? maxStreamsPerConnection : defaultMaxStreams;
  return {
    settings: { maxConcurrentStreams, initialWindowSize: streamWindowBytes, maxFrameSize: streamWindowBytes, maxHeaderListSize: http2HeaderLimits.maxHeaderListSize },
    // kube's MaxUploadBufferPerConnection: every stream's window at once.
    connectionWindowBytes: Math.min(2 ** 31 - 1, streamWindowBytes * maxConcurrentStreams),
  };
}

type Handler = (req: IncomingMessage | http2.Http2ServerRequest, res: ServerResponse | http2.Http2ServerResponse) => void;

/**
 * The HTTPS server: HTTP/2 and HTTP/1.1 on one port, the protocol chosen by ALPN (h2 preferred), as kube-apiserver
 * serves. HTTP/1.1 connections get kube's connection timeouts (core/server/connection-timeouts.ts) and header limits
 * (Node's http2 server applies its own defaults to them unless they are set on the server); the TLS handshake is
 * bounded for both.
 */
export function createSecureServer(
  tls: { cert: string; key: string } & TlsProfile,
  config: Pick<ServerConfig, 'requestHeaderTimeoutMs' | 'idleConnectionTimeoutMs' | 'http2MaxStreamsPerConnection'>,
  handler: Handler,
): http2.Http2SecureServer {
  const { handshakeTimeout, ...http1Timeouts } = connectionTimeoutOptions(config);
  const limits = http2Limits(config.http2MaxStreamsPerConnection);
  const server = http2.createSecureServer(
    {
      cert: tls.cert,
      key: tls.key,
      ...tlsServerOptions(tls),
      ...clientCertificateRequest,
      // No TLS 1.2 renegotiation, as Go's server: a connection's client certificate is then fixed once it is
      // established, and its verification can be kept for the connection (plugins/auth/presented-client-cert.ts).
      secureOptions: constants.SSL_OP_NO_RENEGOTIATION,
      handshakeTimeout,
      allowHTTP1: true,
      settings: limits.settings,
      maxHeaderListPairs: http2HeaderLimits.maxHeaderListPairs,
      // Nagle's algorithm off, as Node's http server and Go's net/http set it: a small answer goes out at once
      noDelay: true,
    },
    handler,
  );
  Object.assign(server, http1Timeouts, http1HeaderLimits);
  server.on('session', (session: http2.ServerHttp2Session) => session.setLocalWindowSize(limits.connectionWindowBytes));
  return server;
}
