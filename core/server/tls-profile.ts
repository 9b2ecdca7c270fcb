/**
 * The TLS a server offers. By default the usual "intermediate" profile: TLS 1.3, and on TLS 1.2 only ECDHE key exchange
 * with AES-GCM or ChaCha20-Poly1305. kube-apiserver's `--tls-cipher-suites` and `--tls-min-version` can change it; they
 * take Go's names (IANA's), mapped here to OpenSSL's.
 */

/** `--tls-min-version` values kapi serves (kube also accepts VersionTLS10 and VersionTLS11). */
export type TlsMinVersion = 'VersionTLS12' | 'VersionTLS13';

export interface TlsProfile {
  /** IANA cipher suite names, as kube-apiserver's `--tls-cipher-suites` takes them; absent: the intermediate profile. */
  cipherSuites?: string[];
  /** Absent: TLS 1.2. */
  minVersion?: TlsMinVersion;
}

/** TLS 1.3's suites. As in Go, they are always offered; naming them in a cipher suite list changes nothing. */
const tls13Suites = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/** Every TLS 1.2 name kube-apiserver accepts (Go's secure and insecure suites, and its two legacy names) → OpenSSL's. */
const tls12Suites: Record<string, string> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  // OpenSSL 3 has no RC4: like any suite it cannot serve, these are left out of the handshake.
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
};

/** The intermediate profile's TLS 1.2 suites, in order of preference. */
const intermediate = [
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
];

/** Every name `--tls-cipher-suites` accepts, sorted (for help texts). */
export const tlsCipherSuiteNames: readonly string[] = [...tls13Suites, ...Object.keys(tls12Suites)].sort();

/** The first name that is no cipher suite kube-apiserver accepts, if any. */
export function unknownCipherSuite(names: readonly string[]): string | undefined {
  return names.find((n) => !tls13Suites.includes(n) && !Object.hasOwn(tls12Suites, n));
}

/** kube's message for a name `--tls-cipher-suites` does not accept. */
export function unknownCipherSuiteMessage(name: string): string {
  return `Cipher suite ${name} not supported or doesn't exist`;
}

/** Node's TLS server options for a profile. Throws a TypeError (kube's message) for an unknown cipher suite name. */
export function tlsServerOptions(profile: TlsProfile = {}): { ciphers: string; minVersion: 'TLSv1.2' | 'TLSv1.3'; honorCipherOrder: true } {
  const names = profile.cipherSuites ?? intermediate;
  const unknown = unknownCipherSuite(names);
  if (unknown !== undefined) throw new TypeError(unknownCipherSuiteMessage(unknown));
  const tls12 = names.filter((n) => Object.hasOwn(tls12Suites, n)).map((n) => tls12Suites[n]!);
  return {
    ciphers: [...tls13Suites, ...new Set(tls12)].join(':'),
    // With no TLS 1.2 suite named TLS 1.2 cannot be negotiated (OpenSSL would fall back to its defaults instead).
    minVersion: profile.minVersion === 'VersionTLS13' || tls12.length === 0 ? 'TLSv1.3' : 'TLSv1.2',
    // The server's order of preference wins, as Go's servers choose.
    honorCipherOrder: true,
  };
}
