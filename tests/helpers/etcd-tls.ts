/** Certificates for etcd over TLS in tests: a CA, etcd's serving certificate for 127.0.0.1, and a client certificate. */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { createCa, type CertificatePem } from '../../plugins/auth/certificates.js';

export interface EtcdTlsFiles {
  caFile: string;
  /** etcd's certificate (serverAuth and clientAuth: etcd also dials itself) and key. */
  serverCertFile: string;
  serverKeyFile: string;
  /** A client certificate (clientAuth) signed by the CA, and its key. */
  clientCertFile: string;
  clientKeyFile: string;
  /** Another CA's client certificate and key (etcd must refuse it). */
  strangerCertFile: string;
  strangerKeyFile: string;
}

const keyAlgorithm = { name: 'ECDSA', namedCurve: 'P-256' };
const signingAlgorithm = { name: 'ECDSA', hash: 'SHA-256' };

async function issue(ca: CertificatePem, commonName: string, usages: x509.ExtendedKeyUsage[], ips: string[]): Promise<CertificatePem> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await crypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(ca.keyPem), keyAlgorithm, false, ['sign']);
  const keys = await crypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01' + Buffer.from(crypto.getRandomValues(new Uint8Array(15))).toString('hex'),
    subject: `CN=${commonName}`,
    issuer: caCert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 24 * 3600_000),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(usages),
      ...(ips.length ? [new x509.SubjectAlternativeNameExtension(ips.map((ip) => ({ type: 'ip' as const, value: ip })))] : []),
    ],
  });
  const keyPem = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { certPem: cert.toString('pem'), keyPem };
}

/** Writes the files into `dir`. */
export async function createEtcdTls(dir: string): Promise<EtcdTlsFiles> {
  const ca = await createCa('etcd-test-ca');
  const server = await issue(ca, 'etcd', [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth], ['127.0.0.1']);
  const client = await issue(ca, 'kapi', [x509.ExtendedKeyUsage.clientAuth], []);
  const stranger = await issue(await createCa('another-ca'), 'stranger', [x509.ExtendedKeyUsage.clientAuth], []);
  const files: EtcdTlsFiles = {
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'etcd.crt'),
    serverKeyFile: join(dir, 'etcd.key'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
    strangerCertFile: join(dir, 'stranger.crt'),
    strangerKeyFile: join(dir, 'stranger.key'),
  };
  writeFileSync(files.caFile, ca.certPem);
  writeFileSync(files.serverCertFile, server.certPem);
  writeFileSync(files.serverKeyFile, server.keyPem, { mode: 0o600 });
  writeFileSync(files.clientCertFile, client.certPem);
  writeFileSync(files.clientKeyFile, client.keyPem, { mode: 0o600 });
  writeFileSync(files.strangerCertFile, stranger.certPem);
  writeFileSync(files.strangerKeyFile, stranger.keyPem, { mode: 0o600 });
  return files;
}
