import test from 'ava';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { createSecureServer, http2Limits } from '../../../../core/server/secure-server.js';
import { createCa, createClientCert, createServingCert } from '../../../../plugins/auth/certificates.js';

test("HTTP/2 limits are kube-apiserver's: 100 streams unless set, 256 KiB frames and stream windows, the connection's window for every stream, a 1 MiB header list", (t) => {
  t.deepEqual(http2Limits(0), {
    // Go's server announces MaxHeaderBytes (1 MiB) plus 32 bytes of overhead for ten fields
    settings: { maxConcurrentStreams: 100, initialWindowSize: 262_144, maxFrameSize: 262_144, maxHeaderListSize: 1_048_576 + 320 },
    connectionWindowBytes: 100 * 262_144,
  });
  t.deepEqual(http2Limits(1000).settings.maxConcurrentStreams, 1000);
  t.is(http2Limits(1000).connectionWindowBytes, 1000 * 262_144);
  // HTTP/2 windows are at most 2^31 - 1 bytes
  t.is(http2Limits(100_000).connectionWindowBytes, 2 ** 31 - 1);
});

// A connection's client certificate is verified once and kept for the connection; renegotiation could change it.
test('a TLS 1.2 client that asks to renegotiate is refused, as by Go’s server', async (t) => {
  const ca = await createCa('test-ca');
  const serving = await createServingCert(ca, 'localhost', ['127.0.0.1']);
  const client = await createClientCert(ca, { username: 'alice', groups: [] }, 60_000);
  const server = createSecureServer(
    { cert: serving.certPem, key: serving.keyPem },
    { requestHeaderTimeoutMs: 0, idleConnectionTimeoutMs: 0, http2MaxStreamsPerConnection: 0 },
    (_req, res) => res.end(),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const socket = tls.connect({
    port: (server.address() as AddressInfo).port,
    host: '127.0.0.1',
    servername: 'localhost',
    ca: ca.certPem,
    cert: client.certPem,
    key: client.keyPem,
    maxVersion: 'TLSv1.2',
    ALPNProtocols: ['http/1.1'],
  });
  t.teardown(() => socket.destroy());
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  t.is(socket.getProtocol(), 'TLSv1.2');

  const refused = new Promise<NodeJS.ErrnoException>((resolve) => socket.once('error', resolve));
  socket.renegotiate({}, () => undefined);
  t.is((await refused).code, 'ERR_SSL_NO_RENEGOTIATION');
});
