import { hash, timingSafeEqual } from 'node:crypto';
import type { AuthenticationRequest, Authenticator, UserInfo } from '../../core/contracts/authenticator.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';

export interface StaticToken {
  token: string;
  user: UserInfo;
}

/** Authenticates `Authorization: Bearer <token>` against a fixed list of tokens (kube's token file authenticator). */
export class StaticTokenAuthenticator implements Authenticator {
  private readonly entries: { digest: Buffer; user: UserInfo }[];

  constructor(
    tokens: StaticToken[],
    readonly name = 'static-token',
  ) {
    this.entries = tokens.map((t) => ({ digest: digest(t.token), user: t.user }));
  }

  async authenticate(req: AuthenticationRequest): Promise<UserInfo | null> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) return null;
    // Comparing fixed-length digests, and every entry, keeps the time taken independent of the token's content.
    const presented = digest(match[1]!);
    let user: UserInfo | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, presented)) user ??= entry.user;
    }
    return user ?? null; // as kube's token file: an unknown token is another authenticator's, or no one's (401)
  }
}

/** Registers a `StaticTokenAuthenticator` for `tokens`. */
export function staticTokenAuth(tokens: StaticToken[]): Module {
  return defineModule('static-token-auth', (container) => {
    container.register(Tokens.Authenticator, { useValue: new StaticTokenAuthenticator(tokens) });
  });
}

/** Registers the tokens of a kube-apiserver `--token-auth-file` (see `readTokenFile`). */
export function tokenFileAuth(tokens: StaticToken[]): Module {
  return defineModule('token-file-auth', (container) => {
    container.register(Tokens.Authenticator, { useValue: new StaticTokenAuthenticator(tokens, 'token-file') });
  });
}

/** One-shot: a Hash object per request cost several times the digest itself. */
function digest(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}
