/**
 * Bearer tokens from the JWT issuers of kube-apiserver's `--authentication-config` file: the file is read and
 * validated at start (an invalid file fails the start), then followed — when it changes, a valid configuration
 * replaces the one in force and an invalid one is logged and leaves it in force, as kube's dynamic reload does.
 */
import { followFile, type FollowedFile } from '../../../lib/fs/follow-file.js';
import { CredentialsRejected, type AuthenticationRequest, type Authenticator, type UserInfo } from '../../../core/contracts/authenticator.js';
import type { Controller } from '../../../core/contracts/controller.js';
import { defineModule, type Module } from '../../../core/contracts/module.js';
import { Tokens } from '../../../core/contracts/tokens.js';
import { readAuthenticationConfiguration } from './authentication-configuration.js';
import { defaultSigningAlgorithms, JwtIssuerAuthenticator, TokenRefused } from './jwt-issuer-authenticator.js';
import { log } from '../../../lib/log/logger.js';

export interface JwtAuthenticationOptions {
  /** The AuthenticationConfiguration file (apiserver.config.k8s.io/v1). */
  configFile: string;
  /** Issuers no JWT authenticator may have: the ServiceAccount token issuers, as kube refuses them. */
  disallowedIssuers?: readonly string[];
  /** Accepted signing algorithms, as `--oidc-signing-algs` (default RS256). */
  signingAlgorithms?: readonly string[];
}

export class JwtAuthentication implements Authenticator, Controller {
  readonly name = 'jwt';
  private issuers: JwtIssuerAuthenticator[] = [];
  private text?: string;
  private followed?: FollowedFile;

  constructor(private readonly options: JwtAuthenticationOptions) {}

  async authenticate(req: AuthenticationRequest): Promise<UserInfo | null> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) return null;
    const token = match[1]!;
    const issuer = this.issuers.find((i) => i.handles(token));
    if (!issuer) return null;
    try {
      return await issuer.authenticate(token);
    } catch (err) {
      if (!(err instanceof TokenRefused)) throw err;
      throw new CredentialsRejected(err.message);
    }
  }

  async start(): Promise<void> {
    this.load();
    this.followed = followFile(this.options.configFile, () => this.reload());
  }

  async stop(): Promise<void> {
    this.followed?.close();
    for (const i of this.issuers) i.close();
  }

  private reload(): void {
    try {
      this.load();
    } catch (err) {
      log.error(`authentication config ${this.options.configFile} not reloaded, the previous one stays in force: ${(err as Error).message}`);
    }
  }

  /** Reads the file; a changed, valid configuration replaces the authenticators in force. */
  private load(): void {
    const configs = readAuthenticationConfiguration(this.options.configFile, this.options.disallowedIssuers);
    const text = JSON.stringify(configs.map((c) => c.spec));
    if (text === this.text) return;
    const next = configs.map((c) => new JwtIssuerAuthenticator(c, this.options.signingAlgorithms ?? defaultSigningAlgorithms));
    for (const i of next) i.start();
    const previous = this.issuers;
    this.issuers = next;
    this.text = text;
    for (const i of previous) i.close();
  }
}

/** Authenticates bearer tokens of the JWT issuers an AuthenticationConfiguration file names, following the file. */
export function jwtAuthentication(options: JwtAuthenticationOptions): Module {
  return defineModule('jwt-authentication', (container) => {
    const jwt = new JwtAuthentication(options);
    container.register(Tokens.Authenticator, { useValue: jwt });
    container.register(Tokens.Controller, { useValue: jwt });
  });
}
