// @peculiar/x509 resolves its internals with tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import { PemConverter } from '@peculiar/x509';

/** The certificates of a PEM bundle, in order (other blocks skipped); a CERTIFICATE block that does not parse throws. */
export function parsePemCertificates(text: string): X509Certificate[] {
  return PemConverter.decodeWithHeaders(text)
    .filter((block) => block.type === 'CERTIFICATE')
    .map((block) => new X509Certificate(Buffer.from(block.rawData)));
}

/** Certificates as Go's pem.Encode writes them: 64 base64 characters a line, each block ending in a newline. */
export function encodePemCertificates(certs: readonly X509Certificate[]): string {
  return certs
    .map((cert) => {
      const lines = cert.raw.toString('base64').match(/.{1,64}/g) ?? [];
      return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
    })
    .join('');
}
