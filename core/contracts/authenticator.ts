import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** Who made a request (authentication.k8s.io UserInfo). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  /** The TLS socket, for client-certificate authenticators (absent on plain HTTP). */
  socket?: TLSSocket;
}

/**
 * An authenticator plugin. Returns the user when it recognises the credentials, `null` when the request carries no
 * credentials it handles (the next authenticator is asked), and throws an `ApiError` (401) when they are invalid. As
 * kube's union authenticator, the next ones are still asked after a refusal; the first refusal is the answer when none
 * accepts the request.
 */
export interface Authenticator {
  readonly name: string;
  authenticate(req: AuthenticationRequest): Promise<UserInfo | null>;
}
