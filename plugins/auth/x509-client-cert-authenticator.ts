import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';
import * as x509 from '@peculiar/x509';
import { CredentialsRejected, type AuthenticationRequest, type Authenticator, type UserInfo } from '../../core/contracts/authenticator.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { clientChainError } from './client-certificate-chain.js';
import { ClientCaFile } from './client-ca.js';

/**
 * Authenticates TLS client certificates as kube's x509 authenticator: the certificate the client sent (with the
 * intermediates it sent) must verify against the client CA for client auth; the user is its subject's CommonName, its
 * groups the subject's Organization values. A certificate without a CommonName authenticates no one.
 */
export class X509ClientCertAuthenticator implements Authenticator {
  readonly name = 'x509-client-cert';

  /** `roots`: the client CA certificates at the time of the request. */
  constructor(private readonly roots: () => X509Certificate[]) {}

  async authenticate(req: AuthenticationRequest): Promise<UserInfo | null> {
    const presented = presentedChain(req.socket?.getPeerCertificate?.(true));
    if (presented.length === 0) return null;
    const { certs, subject } = parse(presented);
    const [leaf, ...intermediates] = certs;
    const error = clientChainError(leaf!, intermediates, this.roots(), new Date());
    if (error) throw new CredentialsRejected(`verifying certificate SN=${leaf!.serialNumber} failed: ${error}`);
    const [username] = subject.getField('CN');
    if (!username) return null;
    return { username, groups: subject.getField('O') };
  }
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

/** Registers an `X509ClientCertAuthenticator` verifying against the CA certificates of `clientCaFile` (a PEM bundle, followed while serving). */
export function x509ClientCertAuth(clientCaFile: string): Module {
  const ca = new ClientCaFile(clientCaFile);
  return defineModule('x509-client-cert-auth', (container) => {
    container.register(Tokens.Authenticator, { useValue: new X509ClientCertAuthenticator(() => ca.current()) });
  });
}
