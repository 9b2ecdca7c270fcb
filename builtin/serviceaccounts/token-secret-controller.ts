import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { ResourceClient } from '../../core/contracts/object-client.js';
import type { Informer } from '../../core/contracts/informer.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ControllerTimers } from '../../lib/async/controller-timers.js';
import type { ServiceAccountTokenConfig } from '../../lib/serviceaccount/token-config.js';
import { legacyTokenClaims } from '../../lib/serviceaccount/legacy-token.js';
import { signServiceAccountToken } from '../../lib/serviceaccount/token-signing.js';
import { serviceAccountResource, serviceAccountResourceRef } from './serviceaccount-resource.js';
import { log } from '../../lib/log/logger.js';

/** The Secret type whose Secrets hold a legacy token of a ServiceAccount, and the annotations that name it. */
export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
const nameAnnotation = 'kubernetes.io/service-account.name';
const uidAnnotation = 'kubernetes.io/service-account.uid';
const secretsRef = { group: '', resource: 'secrets' };
/** A failing Secret is tried again after 1 s, then twice as long each time, at most every 5 minutes. */
const retryMs = 1000;
const maxRetryMs = 300_000;

interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

/**
 * kube's token controller for long-lived ServiceAccount tokens: a `kubernetes.io/service-account-token` Secret whose
 * `kubernetes.io/service-account.name` annotation names a ServiceAccount gets a token that never expires (a legacy
 * token, signed with the service account signing key), `ca.crt` (the root CA, when known) and `namespace`, and the
 * account's uid annotation. A Secret whose ServiceAccount does not exist (or is another of the same name) is deleted,
 * and so are an account's Secrets when it is deleted. Deleting the Secret revokes the token.
 */
export class TokenSecretController implements Controller {
  readonly name = 'serviceaccount-token-controller';
  private secrets?: ResourceClient;
  private accounts!: ResourceClient;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly working = new Set<string>();
  /** Failures in a row, by Secret. */
  private readonly failures = new Map<string, number>();
  /** The ServiceAccounts as storage has them, to see a Secret whose account is gone. */
  private accountsKnown?: Informer;
  private readonly timers = new ControllerTimers();
  /** `ca.crt` as a Secret holds it (base64), when the root CA is known. */
  private readonly caData: string | undefined;

  constructor(
    private readonly container: DependencyContainer,
    private readonly config: ServiceAccountTokenConfig,
  ) {
    this.caData = config.rootCaPem ? Buffer.from(config.rootCaPem).toString('base64') : undefined;
  }

  async start(): Promise<void> {
    const registry = this.container.resolve(Tokens.Registry);
    const secretType = registry.get(secretsRef.group, secretsRef.resource);
    if (!secretType) return; // Secrets are not served: there are no token Secrets to fill
    const objects = this.container.resolve(Tokens.Objects);
    this.secrets = objects.forResource(secretsRef);
    this.accounts = objects.forResource(serviceAccountResourceRef);
    const informers = this.container.resolve(Tokens.Informers);
    const secretInformer = informers.forResource(secretType);
    const accountInformer = informers.forResource(serviceAccountResource());
    this.accountsKnown = accountInformer;
    this.unsubscribe.push(
      secretInformer.subscribe((events) => {
        for (const e of events) if (e.type !== 'DELETED') this.consider(e.object as Secret);
      }),
      accountInformer.subscribe((events) => {
        for (const e of events) {
          if (e.type !== 'DELETED') continue;
          for (const secret of secretInformer.current().values()) if (namesAccount(secret as Secret, e.object)) this.syncLater(secret, 0);
        }
      }),
    );
    // Not awaited: a Secret the server cannot read (its encryption key gone) keeps the Secrets from loading, and the
    // server must start all the same (the Secrets' own requests then fail as kube's do).
    Promise.all([secretInformer.synced(), accountInformer.synced()]).then(
      () => {
        for (const secret of secretInformer.current().values()) this.consider(secret as Secret);
      },
      (err: Error) => log.error(`the token Secret controller cannot read Secrets: ${err.message}`),
    );
  }

  async stop(): Promise<void> {
    this.timers.stop();
    for (const u of this.unsubscribe) u();
  }

  /** A token Secret to fill, or whose account is gone (deleted while the server was down, say). */
  private consider(secret: Secret): void {
    const name = accountName(secret);
    if (secret.type !== serviceAccountTokenType || !name || secret.metadata?.deletionTimestamp) return;
    const account = this.accountsKnown?.current().get(`${secret.metadata?.namespace}/${name}`);
    if (this.needsFilling(secret) || !account || !namesAccount(secret, account)) this.syncLater(secret, 0);
  }

  private needsFilling(secret: Secret): boolean {
    const data = secret.data ?? {};
    return !data.token || !data.namespace || (this.caData !== undefined && data['ca.crt'] !== this.caData) || !secret.metadata?.annotations?.[uidAnnotation];
  }

  private syncLater(secret: KubeObject, ms: number): void {
    const namespace = secret.metadata!.namespace!;
    const name = secret.metadata!.name!;
    const key = `${namespace}/${name}`;
    if (this.working.has(key) || this.timers.stopped) return;
    this.working.add(key);
    this.timers.after(ms, () => {
      this.sync(namespace, name).then(
        () => {
          this.working.delete(key);
          this.failures.delete(key);
        },
        (err: Error) => {
          this.working.delete(key);
          const failures = (this.failures.get(key) ?? 0) + 1;
          this.failures.set(key, failures);
          const delay = Math.min(maxRetryMs, retryMs * 2 ** (failures - 1));
          log.error(`filling the token Secret ${key} failed (${err.message}); trying again in ${delay / 1000} s`);
          this.syncLater(secret, delay);
        },
      );
    });
  }

  /** Fills the Secret from its live ServiceAccount, or deletes it when there is none. */
  private async sync(namespace: string, name: string): Promise<void> {
    const secrets = this.secrets!;
    const secret = (await secrets.get(namespace, name)) as Secret | undefined;
    if (!secret || secret.type !== serviceAccountTokenType || secret.metadata?.deletionTimestamp) return;
    const account = await this.accounts.get(namespace, accountName(secret) ?? '');
    if (!account || account.metadata?.deletionTimestamp || !namesAccount(secret, account)) {
      try {
        await secrets.delete(namespace, name);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
      return;
    }
    if (!this.needsFilling(secret)) return;
    const token = await signServiceAccountToken(
      legacyTokenClaims({ namespace, secretName: name, serviceAccountName: account.metadata!.name!, serviceAccountUid: account.metadata!.uid! }),
      this.config.signingKey,
    );
    await secrets.update(namespace, name, (live) => {
      const s = live as Secret;
      const data = { ...s.data };
      data.token ||= Buffer.from(token).toString('base64');
      data.namespace ||= Buffer.from(namespace).toString('base64');
      if (this.caData) data['ca.crt'] = this.caData;
      s.data = data;
      s.metadata!.annotations = { ...s.metadata!.annotations, [nameAnnotation]: account.metadata!.name!, [uidAnnotation]: account.metadata!.uid! };
      return s;
    });
  }
}

function accountName(secret: KubeObject): string | undefined {
  return secret.metadata?.annotations?.[nameAnnotation] || undefined;
}

/** Whether the token Secret belongs to this ServiceAccount: its name, and its uid once the Secret records one. */
function namesAccount(secret: Secret, account: KubeObject): boolean {
  if (secret.type !== serviceAccountTokenType || secret.metadata?.namespace !== account.metadata?.namespace) return false;
  if (accountName(secret) !== account.metadata?.name) return false;
  const uid = secret.metadata?.annotations?.[uidAnnotation];
  return !uid || uid === account.metadata?.uid;
}
