import test from 'ava';
import { tlsServerOptions } from '../../../../core/server/tls-profile.js';

const tls13 = 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256';

test('the default profile: TLS 1.2 and up, ECDHE with AES-GCM or ChaCha20-Poly1305, TLS 1.3 suites', (t) => {
  t.deepEqual(tlsServerOptions(), {
    ciphers: `${tls13}:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305`,
    minVersion: 'TLSv1.2',
    honorCipherOrder: true,
  });
});

test("kube's names map to OpenSSL's, in the given order, once; TLS 1.3's suites are always offered, as in Go", (t) => {
  const opts = tlsServerOptions({
    cipherSuites: ['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256'],
    minVersion: 'VersionTLS13',
  });
  t.is(opts.ciphers, `${tls13}:AES128-SHA:ECDHE-RSA-CHACHA20-POLY1305`);
  t.is(opts.minVersion, 'TLSv1.3');
});

test('naming only TLS 1.3 suites leaves TLS 1.2 without any, so it is not served', (t) => {
  t.like(tlsServerOptions({ cipherSuites: ['TLS_AES_128_GCM_SHA256'] }), { ciphers: tls13, minVersion: 'TLSv1.3' });
});

test("an unknown name is refused with kube's message", (t) => {
  t.throws(() => tlsServerOptions({ cipherSuites: ['AES128-SHA'] }), { instanceOf: TypeError, message: "Cipher suite AES128-SHA not supported or doesn't exist" });
});
