// @peculiar/x509 resolves its internals with tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import type { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(crypto);

const keyAlgorithm: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const signingAlgorithm: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const day = 24 * 60 * 60 * 1000;
/** Backdating tolerates clocks a little behind ours. */
const clockSkew = 5 * 60 * 1000;

/** A certificate with its private key, both PEM (the key as PKCS#8). */
export interface CertificatePem {
  certPem: string;
  keyPem: string;
}

/** A self-signed ECDSA P-256 certificate authority valid for 10 years. */
export async function createCa(commonName: string): Promise<CertificatePem> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - clockSkew),
    notAfter: new Date(Date.now() + 10 * 365 * day),
    keys,
    signingAlgorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportKey(keys.privateKey) };
}

/** A TLS serving certificate for `hosts` (DNS names or IP addresses), signed by `ca`, valid for 1 year. */
export function createServingCert(ca: CertificatePem, commonName: string, hosts: string[]): Promise<CertificatePem> {
  return issueCert(ca, commonName, ['serverAuth'], hosts);
}

/** What a certificate may be used for (its extended key usages). */
export type CertificateUsage = 'serverAuth' | 'clientAuth';

/** A certificate for `usages`, signed by `ca`, naming `hosts` (DNS names or IP addresses; none for a client), valid for 1 year. */
export function issueCert(ca: CertificatePem, commonName: string, usages: CertificateUsage[], hosts: string[]): Promise<CertificatePem> {
  return issue(ca, [{ CN: [commonName] }], usages, hosts, 365 * day);
}

/**
 * A client certificate signed by `ca` that kube's x509 authenticator reads as user `username` (the subject's
 * CommonName) in `groups` (its Organizations), valid for `validityMs`.
 */
export function createClientCert(ca: CertificatePem, user: { username: string; groups: string[] }, validityMs: number): Promise<CertificatePem> {
  const subject: x509.JsonName = [...(user.groups.length ? [{ O: user.groups }] : []), { CN: [user.username] }];
  return issue(ca, subject, ['clientAuth'], [], validityMs);
}

async function issue(ca: CertificatePem, subject: x509.JsonName, usages: CertificateUsage[], hosts: string[], validityMs: number): Promise<CertificatePem> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importKey(ca.keyPem);
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject,
    issuer: caCert.subject,
    notBefore: new Date(Date.now() - clockSkew),
    notAfter: new Date(Date.now() + validityMs),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(usages.map((u) => x509.ExtendedKeyUsage[u])),
      ...(hosts.length ? [new x509.SubjectAlternativeNameExtension(hosts.map((h) => ({ type: isIP(h) ? ('ip' as const) : ('dns' as const), value: h })))] : []),
      await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportKey(keys.privateKey) };
}

async function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return crypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify']);
}

async function exportKey(key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

async function importKey(pem: string): Promise<webcrypto.CryptoKey> {
  return crypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(pem), keyAlgorithm, false, ['sign']);
}

/** 16 random bytes as hex, first byte 0x01..0x7f: positive and minimally DER-encoded, as Go's crypto/x509 requires. */
function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = 1 + (bytes[0]! % 127);
  return Buffer.from(bytes).toString('hex');
}
