// Client certificates kapi would not issue (expired, without client auth), for the x509 authenticator's tests.
import 'reflect-metadata';
import type { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CertificatePem } from '../../plugins/auth/certificates.js';

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const day = 24 * 60 * 60 * 1000;

export interface OddCertOptions {
  commonName: string;
  groups?: string[];
  notBefore?: Date;
  notAfter?: Date;
  usages?: ('clientAuth' | 'serverAuth')[];
  /** Issue a CA certificate (an intermediate) rather than a leaf. */
  ca?: boolean;
}

/** A certificate signed by `issuer` with the given dates and usages (default: valid now, client auth). */
export async function issueOddCert(issuer: CertificatePem, o: OddCertOptions): Promise<CertificatePem> {
  x509.cryptoProvider.set(crypto);
  const issuerCert = new x509.X509Certificate(issuer.certPem);
  const signingKey = await crypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(issuer.keyPem), ecdsa, false, ['sign']);
  const keys = (await crypto.subtle.generateKey(ecdsa, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01' + Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    subject: [...(o.groups?.length ? [{ O: o.groups }] : []), { CN: [o.commonName] }],
    issuer: issuerCert.subject,
    notBefore: o.notBefore ?? new Date(Date.now() - day),
    notAfter: o.notAfter ?? new Date(Date.now() + day),
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm: ecdsa,
    extensions: [
      new x509.BasicConstraintsExtension(Boolean(o.ca), undefined, true),
      ...(o.ca ? [new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)] : [new x509.ExtendedKeyUsageExtension((o.usages ?? ['clientAuth']).map((u) => x509.ExtendedKeyUsage[u]))]),
    ],
  });
  const keyPem = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { certPem: cert.toString('pem'), keyPem };
}
