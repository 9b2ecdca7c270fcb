import type { X509Certificate } from 'node:crypto';
import { goJSON } from '../go/go-values.js';
import { encodePemCertificates, parsePemCertificates } from '../x509/pem-bundle.js';

/**
 * Where a front server (kube-apiserver) publishes how it authenticates clients, for extension API servers to trust
 * the same CAs and front-proxy headers: ConfigMap `kube-system/extension-apiserver-authentication`.
 */
export const authenticationConfigMap = { namespace: 'kube-system', name: 'extension-apiserver-authentication' } as const;

/** A front server's request-header (front-proxy) configuration, as its `--requestheader-*` flags give it. */
export interface PublishedRequestHeader {
  ca: X509Certificate[];
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

/** The content of the ConfigMap (kube's ClusterAuthenticationInfo): empty CA lists when none is published. */
export interface ClusterAuthenticationInfo {
  clientCa: X509Certificate[];
  requestHeader: PublishedRequestHeader;
}

/** A ConfigMap whose data does not parse (a list that is not a JSON array of strings, a CA that is not PEM). */
export class ClusterAuthenticationInfoError extends Error {
  override readonly name = 'ClusterAuthenticationInfoError';
}

const keys = {
  clientCa: 'client-ca-file',
  requestHeaderCa: 'requestheader-client-ca-file',
  allowedNames: 'requestheader-allowed-names',
  usernameHeaders: 'requestheader-username-headers',
  groupHeaders: 'requestheader-group-headers',
  extraHeaderPrefixes: 'requestheader-extra-headers-prefix',
} as const;

/** The ConfigMap's data read back; absent keys are empty lists. */
export function readClusterAuthenticationInfo(data: Readonly<Record<string, string>>): ClusterAuthenticationInfo {
  return {
    clientCa: certificates(data, keys.clientCa),
    requestHeader: {
      ca: certificates(data, keys.requestHeaderCa),
      allowedNames: stringList(data, keys.allowedNames),
      usernameHeaders: stringList(data, keys.usernameHeaders),
      groupHeaders: stringList(data, keys.groupHeaders),
      extraHeaderPrefixes: stringList(data, keys.extraHeaderPrefixes),
    },
  };
}

/**
 * The ConfigMap's data as kube-apiserver 1.32 writes it: `client-ca-file` when there is a client CA; the request-header
 * keys only when there is a request-header CA, its lists then always written as JSON arrays (`[]` when empty).
 */
export function clusterAuthenticationData(info: ClusterAuthenticationInfo): Record<string, string> {
  const data: Record<string, string> = {};
  if (info.clientCa.length > 0) data[keys.clientCa] = encodePemCertificates(info.clientCa);
  const rh = info.requestHeader;
  if (rh.ca.length === 0) return data;
  data[keys.usernameHeaders] = goJSON(rh.usernameHeaders);
  data[keys.groupHeaders] = goJSON(rh.groupHeaders);
  data[keys.extraHeaderPrefixes] = goJSON(rh.extraHeaderPrefixes);
  data[keys.requestHeaderCa] = encodePemCertificates(rh.ca);
  data[keys.allowedNames] = goJSON(rh.allowedNames);
  return data;
}

/**
 * What is published when a server with `required` finds `existing` (kube's combinedClusterAuthenticationInfo): the
 * union of both, what was there first staying first, so servers sharing the ConfigMap (or one restarted with other
 * flags) add to it rather than take from it; certificates expired for more than five minutes are dropped.
 */
export function combineClusterAuthenticationInfo(existing: ClusterAuthenticationInfo, required: ClusterAuthenticationInfo, now: Date): ClusterAuthenticationInfo {
  const a = existing.requestHeader;
  const b = required.requestHeader;
  return {
    clientCa: combineCertificates(existing.clientCa, required.clientCa, now),
    requestHeader: {
      ca: combineCertificates(a.ca, b.ca, now),
      allowedNames: unique([...a.allowedNames, ...b.allowedNames]),
      usernameHeaders: unique([...a.usernameHeaders, ...b.usernameHeaders]),
      groupHeaders: unique([...a.groupHeaders, ...b.groupHeaders]),
      extraHeaderPrefixes: unique([...a.extraHeaderPrefixes, ...b.extraHeaderPrefixes]),
    },
  };
}

const expirySlackMs = 5 * 60 * 1000;

function combineCertificates(a: X509Certificate[], b: X509Certificate[], now: Date): X509Certificate[] {
  const notExpired = [...a, ...b].filter((c) => new Date(c.validTo).getTime() > now.getTime() - expirySlackMs);
  return notExpired.filter((c, i) => notExpired.findIndex((d) => d.raw.equals(c.raw)) === i);
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function certificates(data: Readonly<Record<string, string>>, key: string): X509Certificate[] {
  const text = data[key];
  if (!text) return [];
  try {
    const certs = parsePemCertificates(text);
    if (certs.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
    return certs;
  } catch (err) {
    throw new ClusterAuthenticationInfoError(`${key}: ${(err as Error).message}`);
  }
}

function stringList(data: Readonly<Record<string, string>>, key: string): string[] {
  const text = data[key];
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ClusterAuthenticationInfoError(`${key}: ${(err as Error).message}`);
  }
  if (value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ClusterAuthenticationInfoError(`${key}: not a JSON array of strings`);
  return value as string[];
}
