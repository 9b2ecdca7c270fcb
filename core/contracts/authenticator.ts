import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ApiError } from './api-error.js';
import { StatusReason } from './status.js';

/** Who made a request (authentication.k8s.io UserInfo). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  /**
   * Every value of each header, unjoined (Node's `headersDistinct`), for authenticators that read repeated headers
   * one value at a time, as Go's http.Header; absent: taken from `headers`.
   */
  headersDistinct?: NodeJS.Dict<string[]>;
  /** The TLS socket, for client-certificate authenticators (absent on plain HTTP). */
  socket?: TLSSocket;
  /**
   * The audiences the credentials must be valid for (a TokenReview's spec.audiences); absent: the server's own API
   * audiences. Authenticators of audience-less credentials (static tokens, certificates) ignore them.
   */
  audiences?: string[];
}

/**
 * Thrown by an authenticator that refuses the credentials: a 401 `Unauthorized` to the client, as kube answers;
 * `why` is kept for a TokenReview's status.error.
 */
export class CredentialsRejected extends ApiError {
  constructor(readonly why: string) {
    super(401, StatusReason.Unauthorized, 'Unauthorized');
  }
}

/**
 * An authenticator plugin. Returns the user when it recognises the credentials, `null` when the request carries no
 * credentials it handles or knows (the next authenticator is asked), and throws an `ApiError` (401), preferably
 * `CredentialsRejected`, when they are invalid. As
 * kube's union authenticator, the next ones are still asked after a refusal; the first refusal is the answer when none
 * accepts the request.
 */
export interface Authenticator {
  readonly name: string;
  authenticate(req: AuthenticationRequest): Promise<UserInfo | null>;
}

/** The group of every authenticated user (kube's user.AllAuthenticated). */
export const authenticatedGroup = 'system:authenticated';

/**
 * kube's union of authenticators behind its authenticated-group adder: the user the first accepting authenticator
 * returns, in `system:authenticated`; else the first refusal is thrown (a refusal does not stop the others from
 * accepting the request); else a bearer token none knows is a 401 (kube's bearer token authenticator); else null: the
 * request carries no credentials.
 */
export async function authenticateWithAll(authenticators: readonly Authenticator[], req: AuthenticationRequest): Promise<UserInfo | null> {
  let refused: unknown;
  for (const a of authenticators) {
    try {
      const user = await a.authenticate(req);
      if (user) return user.groups.includes(authenticatedGroup) ? user : { ...user, groups: [...user.groups, authenticatedGroup] };
    } catch (err) {
      refused ??= err;
    }
  }
  if (refused !== undefined) throw refused;
  if (/^Bearer\s+\S/i.test(req.headers.authorization ?? '')) throw new ApiError(401, StatusReason.Unauthorized, 'Unauthorized');
  return null;
}
