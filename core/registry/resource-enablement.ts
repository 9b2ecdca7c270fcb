import type { ResourceType } from '../contracts/resource-type.js';
import { RuntimeConfigError, type RuntimeConfig } from '../contracts/runtime-config.js';
import { goParseBool, goParseBoolError } from '../../lib/go/parse-bool.js';
import { goQuote } from '../../lib/go/go-values.js';

/** The `api/…` keys, in the order kube applies them, with the versions each addresses. */
const versionMatchers: [key: string, matches: (version: string) => boolean][] = [
  ['api/all', () => true],
  ['api/ga', (v) => /^v\d+$/.test(v)],
  ['api/beta', (v) => /^v\d+beta\d+$/.test(v)],
  ['api/alpha', (v) => /^v\d+alpha\d+$/.test(v)],
];
const matcherKeys = new Set(versionMatchers.map(([key]) => key));

/** A group-version as kube writes it: `v1` for the core group, `apps/v1` for the others. */
function groupVersionName(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/**
 * The built-in resource types as `config` leaves them: a disabled version is no longer served, a type left with no
 * served version is gone (not registered, so absent from discovery and OpenAPI, and 404). Throws a
 * `RuntimeConfigError` with kube-apiserver's message where kube-apiserver refuses to start.
 */
export function enabledResourceTypes(types: readonly ResourceType[], config: RuntimeConfig | undefined): ResourceType[] {
  if (!config || Object.keys(config).length === 0) return [...types];
  const overrides = withCoreGroupAliases(config);
  const registered = new Map<string, Set<string>>(); // group → versions
  for (const rt of types) {
    const versions = registered.get(rt.group) ?? new Set<string>();
    for (const v of rt.versions) if (v.served) versions.add(v.name);
    registered.set(rt.group, versions);
  }
  validate(overrides, registered);
  const enabled = resourceEnablement(overrides, registered);
  return types.flatMap((rt) => {
    const versions = rt.versions.map((v) => (v.served && !enabled(rt.group, v.name, rt.names.plural) ? { ...v, served: false } : v));
    if (!versions.some((v) => v.served)) return [];
    return versions.every((v, i) => v === rt.versions[i]) ? [rt] : [{ ...rt, versions }];
  });
}

/**
 * kube-apiserver's completion of the flag: `v1` and `api/v1` name the core group-version `/v1`; `api/legacy` is
 * ignored. `v1/RESOURCE` and `api/v1/RESOURCE` name the core resource `/v1/RESOURCE` (kube-apiserver widens them to
 * the whole of `/v1`, which is never what they ask for).
 */
function withCoreGroupAliases(config: RuntimeConfig): Map<string, string> {
  const overrides = new Map<string, string>();
  for (const [key, value] of Object.entries(config)) {
    if (key === 'api/legacy') continue;
    const core = /^(?:api\/)?v1(\/.*)?$/.exec(key);
    overrides.set(core ? `/v1${core[1] ?? ''}` : key, value);
  }
  return overrides;
}

/** kube's validation of the flag against the groups the server knows. */
function validate(overrides: Map<string, string>, registered: Map<string, Set<string>>): void {
  if (overrides.size === 1 && overrides.get('api/all') === 'false') {
    // kube: a server serving nothing has no meaning
    throw new RuntimeConfigError('invalid key with only api/all=false');
  }
  const unknown = new Set<string>();
  for (const key of overrides.keys()) {
    if (matcherKeys.has(key)) continue;
    const tokens = key.split('/');
    if (tokens.length !== 2 && tokens.length !== 3) throw new RuntimeConfigError(`runtime-config invalid key ${key}`);
    if (!registered.has(tokens[0]!)) unknown.add(tokens[0]!);
  }
  if (unknown.size > 0) throw new RuntimeConfigError(`unknown api groups ${[...unknown].join(',')}`);
}

/**
 * Whether a group/version/resource is served, as kube's ResourceConfig decides: every registered version is by
 * default; the `api/…` keys apply first, in kube's order, then group-versions, then resources, which take precedence.
 */
function resourceEnablement(overrides: Map<string, string>, registered: Map<string, Set<string>>): (group: string, version: string, plural: string) => boolean {
  const versions = new Map<string, boolean>();
  for (const [group, names] of registered) for (const v of names) versions.set(`${group}/${v}`, true);
  for (const [key, matches] of versionMatchers) {
    const value = overrides.get(key);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false') throw new RuntimeConfigError(`invalid value ${key}=${value}`);
    for (const [group, names] of registered) for (const v of names) if (matches(v)) versions.set(`${group}/${v}`, value === 'true');
  }
  const resources = new Map<string, boolean>();
  for (const [key, value] of overrides) {
    if (matcherKeys.has(key)) continue;
    const [group = '', version = '', resource] = key.split('/');
    if (!registered.get(group)?.has(version)) {
      throw new RuntimeConfigError(`group version ${groupVersionName(group, version)} that has not been registered`);
    }
    const enabled = value === '' ? true : goParseBool(value);
    if (enabled === undefined) throw new RuntimeConfigError(`invalid value of ${key}: ${value}, err: ${goParseBoolError(value)}`);
    if (resource === undefined) {
      versions.set(`${group}/${version}`, enabled);
    } else {
      if (resource.toLowerCase() !== resource) {
        throw new RuntimeConfigError(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${goQuote(resource)}`);
      }
      resources.set(`${group}/${version}/${resource}`, enabled);
    }
  }
  return (group, version, plural) => resources.get(`${group}/${version}/${plural}`) ?? versions.get(`${group}/${version}`) ?? false;
}
