import type { IncomingMessage } from 'node:http';
import { errors } from '../contracts/api-error.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { AuthorizationAttributes, AuthorizationChain } from '../contracts/authorizer.js';
import { serviceAccountGroups, splitServiceAccountUsername } from '../../lib/serviceaccount/service-account-names.js';
import { forbidden } from './forbidden-message.js';

/*
 * kube's impersonation filter (k8s.io/apiserver pkg/endpoints/filters/impersonation.go): after authentication, the
 * Impersonate-* headers name the user a request acts as. The authenticated user must be allowed the `impersonate`
 * verb on each thing asked for; the request then goes on as the impersonated user.
 */

const userHeader = 'impersonate-user';
const groupHeader = 'impersonate-group';
const uidHeader = 'impersonate-uid';
const extraHeaderPrefix = 'impersonate-extra-';

/** One thing a request asks to act as (kube's ObjectReference of buildImpersonationRequests). */
interface ImpersonationRequest {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace?: string;
  name: string;
  /** The extra's key (kube keeps it in the reference's fieldPath). */
  extraKey?: string;
}

/** The user the request acts as: the authenticated one, or the one its Impersonate-* headers name if allowed. */
export async function impersonatedUser(req: IncomingMessage, requester: UserInfo, authorization: AuthorizationChain): Promise<UserInfo> {
  if (!asksToImpersonate(req)) return requester;
  const requests = impersonationRequests(req);
  if (requests.length === 0) return requester;
  // Groups given are the whole list (system:authenticated included or not); a ServiceAccount's otherwise.
  const groupsSpecified = (req.headersDistinct[groupHeader]?.length ?? 0) > 0;
  let username = '';
  let uid = '';
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    const attrs = attributesOf(r, requester);
    switch (r.kind) {
      case 'ServiceAccount':
        username = `system:serviceaccount:${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups.push(...serviceAccountGroups(r.namespace!));
        break;
      case 'User':
        username = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.extraKey!] ??= []).push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
    const { decision, reason } = await authorization.authorize(attrs);
    if (decision !== 'allow') throw forbidden(attrs, reason);
  }
  const everyone = username === 'system:anonymous' ? ['system:unauthenticated'] : ['system:authenticated', 'system:unauthenticated'];
  if (!groups.some((g) => everyone.includes(g))) groups.push(everyone[0]!);
  return { username, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
}

/** What `impersonate` is asked on: users, groups and serviceaccounts in the core group; uids and userextras in authentication.k8s.io. */
function attributesOf(r: ImpersonationRequest, user: UserInfo): AuthorizationAttributes {
  const common = { user, verb: 'impersonate', isResourceRequest: true, path: '', name: r.name };
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...common, apiGroup: '', apiVersion: '', resource: 'serviceaccounts', namespace: r.namespace };
    case 'User':
      return { ...common, apiGroup: '', apiVersion: '', resource: 'users' };
    case 'Group':
      return { ...common, apiGroup: '', apiVersion: '', resource: 'groups' };
    case 'UserExtra':
      return { ...common, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'userextras', subresource: r.extraKey };
    case 'UID':
      return { ...common, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids' };
  }
}

/** Whether any Impersonate-* header came (most requests: without building every header's list of values). */
function asksToImpersonate(req: IncomingMessage): boolean {
  for (const name in req.headers) if (name.startsWith('impersonate-')) return true;
  return false;
}

/**
 * The things the headers ask to act as, in kube's order: the user (a ServiceAccount when its name is one), each group,
 * each extra value, the uid. Groups, extras or a uid without a user are refused.
 */
function impersonationRequests(req: IncomingMessage): ImpersonationRequest[] {
  const headers = req.headersDistinct;
  const requests: ImpersonationRequest[] = [];
  const user = utf8(headers[userHeader]?.[0] ?? '');
  if (user) {
    const sa = splitServiceAccountUsername(user);
    requests.push(sa ? { kind: 'ServiceAccount', ...sa } : { kind: 'User', name: user });
  }
  for (const group of headers[groupHeader] ?? []) requests.push({ kind: 'Group', name: utf8(group) });
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(extraHeaderPrefix) || !values) continue;
    const extraKey = unescapeExtraKey(header.slice(extraHeaderPrefix.length));
    for (const value of values) requests.push({ kind: 'UserExtra', name: utf8(value), extraKey });
  }
  const uid = utf8(headers[uidHeader]?.[0] ?? '');
  if (uid) requests.push({ kind: 'UID', name: uid });
  // kube answers this with a 500; kapi answers bad input with a 400 and kube's text.
  if (!user && requests.length > 0) throw errors.badRequest(`requested ${goFormat(requests)} without impersonating a user`);
  return requests;
}

/** A header value's bytes (Node reads them as Latin-1) as the UTF-8 text Go sees. */
function utf8(value: string): string {
  return Buffer.from(value, 'latin1').toString('utf8');
}

/** An extra's key is percent-encoded in the header name; one that does not decode is kept as sent, as kube does. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** The requests as Go prints a []ObjectReference with %v (kube's message names them so). */
function goFormat(requests: ImpersonationRequest[]): string {
  const reference = (r: ImpersonationRequest) => {
    const apiVersion = r.kind === 'UserExtra' || r.kind === 'UID' ? 'authentication.k8s.io/v1' : '';
    return `{${[r.kind, r.namespace ?? '', r.name, '', apiVersion, '', r.extraKey ?? ''].join(' ')}}`;
  };
  return `[${requests.map(reference).join(' ')}]`;
}
