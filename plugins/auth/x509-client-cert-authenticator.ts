import 'reflect-metadata';
import type { X509Certificate } from 'node:crypto';
import type { AuthenticationRequest, Authenticator, UserInfo } from '../../core/contracts/authenticator.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ClientCaFile } from './client-ca.js';
import { verifiedClientSubject } from './presented-client-cert.js';

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
    const subject = verifiedClientSubject(req.socket, this.roots());
    if (!subject) return null;
    if (!subject.commonName) return null;
    return { username: subject.commonName, groups: [...subject.organizations] };
  }
}

/** Registers an `X509ClientCertAuthenticator` verifying against the CA certificates of `clientCaFile` (a PEM bundle, followed while serving). */
export function x509ClientCertAuth(clientCaFile: string): Module {
  const ca = new ClientCaFile(clientCaFile);
  return defineModule('x509-client-cert-auth', (container) => {
    container.register(Tokens.Authenticator, { useValue: new X509ClientCertAuthenticator(() => ca.current()) });
  });
}
