import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import * as x509 from '@peculiar/x509';
import { CredentialsRejected } from '../../core/contracts/authenticator.js';
import { verifyClientChain } from './client-certificate-chain.js';

/** The subject of a verified client certificate, as kube's authenticators read it: its first CommonName, its Organizations. */
export interface ClientSubject {
  /** '' when it has none. */
  commonName: string;
  organizations: readonly string[];
}

/** A connection's client certificate as verified once: against which roots, until when, and whose it is. */
interface VerifiedPeer {
  roots: readonly X509Certificate[];
  /** The chain's validity, in ms since the epoch: the latest notBefore and the earliest notAfter. */
  validFrom: number;
  validTo: number;
  subject: ClientSubject;
}

/**
 * Verifications by connection (null: the client sent no certificate): parsing and verifying a chain costs
 * milliseconds, and even reading the peer certificate costs a parse, while a kept-alive connection (a front proxy's,
 * kubectl's) presents the same certificate on every request. A connection's certificate cannot change: kapi's TLS
 * server refuses renegotiation (core/server/secure-server.ts), as Go's does. Weak, so it goes with the connection.
 */
const verifiedPeers = new WeakMap<TLSSocket, VerifiedPeer | null>();

/**
 * The subject of the client certificate a TLS client sent, once it (with the intermediates it sent) verifies against
 * `roots` for client auth; null when the client sent no certificate. A certificate that does not verify is refused
 * (401) with Go's reason, as kube's x509 verifier. A connection's certificate verified before is taken as verified
 * while the roots are the same and the time is within the chain's validity.
 */
export function verifiedClientSubject(socket: TLSSocket | undefined, roots: X509Certificate[]): ClientSubject | null {
  if (!socket) return null;
  const known = verifiedPeers.get(socket);
  if (known === null) return null;
  const now = Date.now();
  if (known && now >= known.validFrom && now <= known.validTo && sameRoots(known.roots, roots)) return known.subject;

  // A plain-HTTP socket has no certificates.
  const presented = typeof socket.getPeerCertificate === 'function' ? presentedChain(socket.getPeerCertificate(true)) : [];
  if (presented.length === 0) {
    verifiedPeers.set(socket, null);
    return null;
  }
  const { certs, subject } = parse(presented);
  const [leaf, ...intermediates] = certs;
  const verdict = verifyClientChain(leaf!, intermediates, roots, new Date(now));
  if ('error' in verdict) throw new CredentialsRejected(`verifying certificate SN=${leaf!.serialNumber} failed: ${verdict.error}`);
  verifiedPeers.set(socket, {
    roots,
    validFrom: Math.max(...verdict.chain.map((c) => Date.parse(c.validFrom))),
    validTo: Math.min(...verdict.chain.map((c) => Date.parse(c.validTo))),
    subject,
  });
  return subject;
}

/** The same CA certificates (a CA file not reloaded, or combined from the same sources). */
function sameRoots(a: readonly X509Certificate[], b: readonly X509Certificate[]): boolean {
  return a === b || (a.length === b.length && a.every((cert, i) => cert === b[i]));
}

/** The certificates, and the client's own subject; one OpenSSL took in the handshake but that does not parse here is refused (401, not 500). */
function parse(presented: Buffer[]): { certs: X509Certificate[]; subject: ClientSubject } {
  try {
    const name = new x509.X509Certificate(presented[0]!).subjectName;
    const subject = { commonName: name.getField('CN')[0] ?? '', organizations: name.getField('O') };
    return { certs: presented.map((raw) => new X509Certificate(raw)), subject };
  } catch (err) {
    throw new CredentialsRejected(`x509: malformed certificate: ${(err as Error).message}`);
  }
}

/** The DER of the certificates a TLS client sent, its own first (none when it sent none). */
function presentedChain(peer: DetailedPeerCertificate): Buffer[] {
  const chain: Buffer[] = [];
  for (let cert: DetailedPeerCertificate | undefined = peer; cert?.raw && chain.length < 10; cert = cert.issuerCertificate) {
    if (chain.some((c) => c.equals(cert!.raw))) break; // a self-signed certificate is its own issuer
    chain.push(cert.raw);
  }
  return chain;
}
