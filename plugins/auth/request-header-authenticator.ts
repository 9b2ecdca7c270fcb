import 'reflect-metadata';
import type { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { CredentialsRejected, type AuthenticationRequest, type Authenticator, type UserInfo } from '../../core/contracts/authenticator.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ClientCaFile } from './client-ca.js';
import { verifiedClientSubject } from './presented-client-cert.js';

/** The `--requestheader-*` settings, header names in any case. */
export interface RequestHeaderOptions {
  /** `--requestheader-allowed-names`: the CommonNames a front proxy's certificate may have; empty: any. */
  allowedNames: string[];
  /** `--requestheader-username-headers`: the first non-empty one names the user. */
  usernameHeaders: string[];
  /** `--requestheader-uid-headers`: the first non-empty one is the user's UID; none by default, as in kube. */
  uidHeaders?: string[];
  /** `--requestheader-group-headers`: every value of each is a group. */
  groupHeaders: string[];
  /** `--requestheader-extra-headers-prefix`: `<prefix><key>: value` is an extra value of the (lower-cased, percent-decoded) key. */
  extraHeaderPrefixes: string[];
}

export const defaultRequestHeaderNames = {
  usernameHeaders: ['X-Remote-User'],
  uidHeaders: [] as string[],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
};

/**
 * kube's front-proxy (request-header) authenticator: a request whose client certificate verifies against the
 * request-header CA, with a CommonName among the allowed names when they are given, is the user its headers name;
 * the headers are then removed from the request. Without such a certificate the headers are never trusted: a
 * certificate of another CA or CommonName is refused (the next authenticators still decide), no certificate is null.
 */
export class RequestHeaderAuthenticator implements Authenticator {
  readonly name = 'request-header';
  private readonly usernameHeaders: string[];
  private readonly uidHeaders: string[];
  private readonly groupHeaders: string[];
  private readonly extraPrefixes: string[];

  /** `roots`: the request-header CA certificates at the time of the request. */
  constructor(
    private readonly roots: () => X509Certificate[],
    private readonly options: RequestHeaderOptions,
  ) {
    // Node gives header names lower-cased.
    this.usernameHeaders = options.usernameHeaders.map((h) => h.toLowerCase());
    this.uidHeaders = (options.uidHeaders ?? []).map((h) => h.toLowerCase());
    this.groupHeaders = options.groupHeaders.map((h) => h.toLowerCase());
    this.extraPrefixes = options.extraHeaderPrefixes.map((p) => p.toLowerCase());
  }

  async authenticate(req: AuthenticationRequest): Promise<UserInfo | null> {
    const subject = verifiedClientSubject(req.socket, this.roots());
    if (!subject) return null;
    const cn = subject.commonName;
    if (this.options.allowedNames.length > 0 && !this.options.allowedNames.includes(cn)) {
      throw new CredentialsRejected(`x509: subject with cn=${cn} is not in the allowed list`);
    }
    const distinct = req.headersDistinct;
    const values = (name: string) => distinct?.[name] ?? headerValues(req.headers, name);
    const username = firstNonEmpty(this.usernameHeaders, values);
    if (!username) return null;
    const uid = firstNonEmpty(this.uidHeaders, values);
    const groups: string[] = [];
    for (const h of this.groupHeaders) for (const v of values(h)) if (v !== '') groups.push(v);
    let extra: Record<string, string[]> | undefined;
    const prefixed: string[] = [];
    for (const prefix of this.extraPrefixes) {
      for (const name in req.headers) {
        if (!name.startsWith(prefix)) continue;
        const key = extraKey(name.slice(prefix.length));
        extra ??= {};
        extra[key] = [...(extra[key] ?? []), ...values(name)];
        prefixed.push(name);
      }
    }
    // Taken off the request, so nothing after authentication reads or forwards them.
    for (const headers of [req.headers, distinct]) {
      if (!headers) continue;
      for (const names of [this.usernameHeaders, this.uidHeaders, this.groupHeaders, prefixed]) for (const name of names) if (name in headers) delete headers[name];
    }
    return { username, ...(uid ? { uid } : {}), groups, ...(extra ? { extra } : {}) };
  }
}

/** kube reads each header's first value only (Go's Header.Get), and takes the first header where it is not empty. */
function firstNonEmpty(names: readonly string[], values: (name: string) => string[]): string | undefined {
  for (const name of names) {
    const first = values(name)[0];
    if (first) return first;
  }
  return undefined;
}

/** The values of a header in Node's joined form: set-cookie is a list, others one string. */
function headerValues(headers: IncomingHttpHeaders, name: string): string[] {
  const value = headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** An extra key from a header name's rest: percent-decoded as Go's url.PathUnescape, kept as it is when malformed. */
function extraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** Registers a `RequestHeaderAuthenticator` trusting front proxies whose certificates `clientCaFile` (a PEM bundle, followed while serving) signs. */
export function requestHeaderAuth(clientCaFile: string, options: RequestHeaderOptions): Module {
  const ca = new ClientCaFile(clientCaFile);
  return defineModule('request-header-auth', (container) => {
    container.register(Tokens.Authenticator, { useValue: new RequestHeaderAuthenticator(() => ca.current(), options) });
  });
}
