import { isIP } from 'node:net';
import { pluralOf } from '../crd/crd-assembly.js';
import { GenServerError } from './gen-server-error.js';

/** The versions of the packages a generated project depends on (kapi's own, so that its lock resolves them). */
export interface DependencyVersions {
  'better-sqlite3': string;
  yaml: string;
  typescript: string;
  '@types/node': string;
  '@types/better-sqlite3': string;
  ava: string;
}

export interface GenServerInput {
  /** The project's name: its package name, its namespace and ServiceAccount at the front. */
  name: string;
  group: string;
  /** Default v1alpha1. */
  version?: string;
  /** The kinds kept in SQLite (at least one). */
  kinds: string[];
  /** The kapi dependency of package.json: a version range or a `file:` tarball. */
  kapi: string;
  dependencies: DependencyVersions;
  /** The CA that signed the serving certificate (PEM): the APIService's caBundle. */
  caCertPem: string;
  /** The address the front reaches the server at (the Endpoints' IP), and its port. */
  address: string;
  port: number;
}

export interface KindModel {
  kind: string;
  plural: string;
}

export interface ServerModel extends Omit<GenServerInput, 'version' | 'kinds'> {
  version: string;
  kinds: KindModel[];
  /** The computed, read-only example resource every project has. */
  info: KindModel;
}

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const kindName = /^[A-Z][A-Za-z0-9]*$/;
const kubeVersion = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
const infoKind = 'ServerInfo';
const defaultVersion = 'v1alpha1';

/** What `checkServerInput` checks. */
export type ServerNames = Pick<GenServerInput, 'name' | 'group' | 'version' | 'kinds' | 'address' | 'port'>;

/** The model of the project the input describes; throws GenServerError for input `checkServerInput` refuses. */
export function serverModel(input: GenServerInput): ServerModel {
  const kinds = checkServerInput(input);
  return { ...input, version: input.version ?? defaultVersion, kinds, info: { kind: infoKind, plural: pluralOf(infoKind) } };
}

/**
 * Checks the name, group, version, kinds, address and port as kube checks them where they end up (a namespace, the
 * APIService, resource names, the Endpoints); resolves with the kinds' models. Throws GenServerError.
 */
export function checkServerInput(input: ServerNames): KindModel[] {
  const { name, group, kinds } = input;
  const version = input.version ?? defaultVersion;
  // The name is a namespace at the front, and the Service's DNS name api.<name>.svc.
  if (name.length > 63 || !dns1123Label.test(name)) {
    throw new GenServerError(`invalid name "${name}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (at most 63 characters)`);
  }
  if (group.length > 253 || !group.includes('.') || !group.split('.').every((l) => l.length <= 63 && dns1123Label.test(l))) {
    throw new GenServerError(`invalid group "${group}": a lowercase RFC 1123 subdomain with at least one dot, e.g. example.com`);
  }
  if (!kubeVersion.test(version)) throw new GenServerError(`invalid version "${version}": v<N>, v<N>alpha<M> or v<N>beta<M>, e.g. v1alpha1`);
  if (kinds.length === 0) throw new GenServerError('at least one kind is needed');
  const seen = new Map<string, string>();
  const models = kinds.map((kind) => {
    if (!kindName.test(kind)) throw new GenServerError(`invalid kind "${kind}": an UpperCamelCase name of letters and digits, e.g. Widget`);
    if (kind.endsWith('List')) throw new GenServerError(`invalid kind "${kind}": <Kind>List is the name of a kind's list`);
    if (kind === infoKind) throw new GenServerError(`invalid kind "${kind}": the name of the computed example resource every project has`);
    const plural = pluralOf(kind);
    if (plural.length > 63) throw new GenServerError(`invalid kind "${kind}": its plural ${plural} is longer than 63 characters`);
    const other = seen.get(plural);
    if (other !== undefined) throw new GenServerError(`kinds "${other}" and "${kind}" have the same resource name ${plural}`);
    seen.set(plural, kind);
    return { kind, plural };
  });
  if (!Number.isInteger(input.port) || input.port < 1 || input.port > 65535) throw new GenServerError(`invalid port ${input.port}: 1 to 65535`);
  // kube refuses loopback addresses in Endpoints.
  if (!isIP(input.address) || /^127\./.test(input.address) || input.address === '::1') {
    throw new GenServerError(`invalid address "${input.address}": the IP address the front reaches the server at (not a loopback address)`);
  }
  return models;
}
