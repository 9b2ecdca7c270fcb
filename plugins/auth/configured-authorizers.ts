import type { DependencyContainer } from 'tsyringe';
import type { UserInfo } from '../../core/contracts/authenticator.js';
import { AuthorizationChain, unionRulesFor, type AuthorizationAttributes, type Authorizer, type AuthorizerAnswer, type SubjectRules } from '../../core/contracts/authorizer.js';
import type { Controller } from '../../core/contracts/controller.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { AlwaysAllowAuthorizer } from './always-allow-authorizer.js';
import { AlwaysDenyAuthorizer } from './always-deny-authorizer.js';
import { readAuthorizationConfiguration, type AuthorizationConfiguration, type AuthorizerConfig } from './authorization-configuration.js';
import { followFile, type FollowedFile } from '../../lib/fs/follow-file.js';
import { RbacAuthorizer } from './rbac-authorizer.js';
import { WebhookAuthorizer } from './webhook-authorizer.js';
import { log } from '../../lib/log/logger.js';

export interface AuthorizationConfigOptions {
  /** The AuthorizationConfiguration file (`--authorization-config`), followed while serving. */
  configFile: string;
  /** The file as read and validated at start (kapi serve reads it first, so a bad file is a usage error). */
  initial?: AuthorizationConfiguration;
}

/**
 * The authorizers of an AuthorizationConfiguration file, asked in the file's order as kube's union authorizer asks
 * them. The file is followed: a changed, valid configuration replaces the authorizers (webhooks start with empty
 * caches; RBAC is one authorizer throughout); an invalid one is logged and the one in force stays, as kube-apiserver
 * reloads it.
 */
export class ConfiguredAuthorizers implements Authorizer, Controller {
  readonly name = 'authorization-config';
  private authorizers: readonly Authorizer[] = [];
  private text?: string;
  private readonly chain = new AuthorizationChain(() => this.authorizers);
  private followed?: FollowedFile;

  constructor(
    private readonly options: AuthorizationConfigOptions,
    private readonly rbac: RbacAuthorizer,
  ) {
    if (options.initial) this.use(options.initial);
  }

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizerAnswer> {
    const { decision, reason, evaluationError } = await this.chain.authorize(attrs);
    return { decision, ...(reason ? { reason } : {}), ...(evaluationError ? { evaluationError } : {}) };
  }

  rulesFor(user: UserInfo, namespace: string): SubjectRules {
    return unionRulesFor(this.authorizers, user, namespace);
  }

  async start(): Promise<void> {
    if (!this.options.initial) this.use(readAuthorizationConfiguration(this.options.configFile));
    await this.rbac.start();
    this.followed = followFile(this.options.configFile, () => this.reload());
  }

  async stop(): Promise<void> {
    this.followed?.close();
    await this.rbac.stop();
  }

  private reload(): void {
    try {
      this.use(readAuthorizationConfiguration(this.options.configFile));
    } catch (err) {
      log.error(`authorization config ${this.options.configFile} not reloaded, the previous one stays in force: ${(err as Error).message}`);
    }
  }

  private use(config: AuthorizationConfiguration): void {
    if (config.text === this.text) return;
    this.authorizers = config.authorizers.map((a) => this.authorizerFor(a));
    this.text = config.text;
    log.info(`authorization config ${this.options.configFile} in force: ${config.authorizers.map((a) => `${a.type}/${a.name}`).join(', ')}`);
  }

  private authorizerFor(a: AuthorizerConfig): Authorizer {
    switch (a.type) {
      case 'RBAC':
        return this.rbac;
      case 'AlwaysAllow':
        return new AlwaysAllowAuthorizer();
      case 'AlwaysDeny':
        return new AlwaysDenyAuthorizer();
      case 'Webhook':
        return new WebhookAuthorizer({
          name: a.name,
          client: a.client,
          version: a.subjectAccessReviewVersion,
          timeoutMs: a.timeoutMs,
          authorizedTtlMs: a.authorizedTtlMs,
          unauthorizedTtlMs: a.unauthorizedTtlMs,
          decisionOnError: a.failurePolicy === 'Deny' ? 'deny' : 'no-opinion',
          matchConditions: a.matchConditions,
        });
    }
  }
}

/** The authorizers of kube-apiserver's `--authorization-config` file (RBAC among them needs the rbac module's kinds). */
export function authorizationConfig(options: AuthorizationConfigOptions): Module {
  return defineModule(
    'authorization-config',
    (container: DependencyContainer) => {
      const authorizers = new ConfiguredAuthorizers(options, new RbacAuthorizer(container));
      container.register(Tokens.Authorizer, { useValue: authorizers });
      container.register(Tokens.Controller, { useValue: authorizers });
    },
    { needs: ['rbac'] },
  );
}
