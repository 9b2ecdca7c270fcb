import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import * as x509 from '@peculiar/x509';
import { CredentialsRejected } from '../../core/contracts/authenticator.js';
import { clientChainError } from './client-certificate-chain.js';

/**
 * The subject of the client certificate a TLS client sent, once it (with the intermediates it sent) verifies against
 * `roots` for client auth; null when the client sent no certificate. A certificate that does not verify is refused
 * (401) with Go's reason, as kube's x509 verifier.
 */
export function verifiedClientSubject(socket: TLSSocket | undefined, roots: X509Certificate[]): x509.Name | null {
  const presented = presentedChain(socket?.getPeerCertificate?.(true));
  if (presented.length === 0) return null;
  const { certs, subject } = parse(presented);
  const [leaf, ...intermediates] = certs;
  const error = clientChainError(leaf!, intermediates, roots, new Date());
  if (error) throw new CredentialsRejected(`verifying certificate SN=${leaf!.serialNumber} failed: ${error}`);
  return subject;
}

/** The certificates, and the client's own subject; one OpenSSL took in the handshake but that does not parse here is refused (401, not 500). */
function parse(presented: Buffer[]): { certs: X509Certificate[]; subject: x509.Name } {
  try {
    return { certs: presented.map((raw) => new X509Certificate(raw)), subject: new x509.X509Certificate(presented[0]!).subjectName };
  } catch (err) {
    throw new CredentialsRejected(`x509: malformed certificate: ${(err as Error).message}`);
  }
}

/** The DER of the certificates a TLS client sent, its own first (none when it sent none). */
function presentedChain(peer: DetailedPeerCertificate | undefined): Buffer[] {
  const chain: Buffer[] = [];
  for (let cert = peer; cert?.raw && chain.length < 10; cert = cert.issuerCertificate) {
    if (chain.some((c) => c.equals(cert!.raw))) break; // a self-signed certificate is its own issuer
    chain.push(cert.raw);
  }
  return chain;
}
