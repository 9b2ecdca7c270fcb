import type { DependencyContainer } from 'tsyringe';
import type { RemoteAPIService, RemoteDiscovery } from '../../core/contracts/api-services.js';
import type { Controller } from '../../core/contracts/controller.js';
import { backendGet, type BackendRoute } from './backend-get.js';
import { legacyResourceDiscovery } from '../../lib/aggregator/legacy-resource-discovery.js';
import { RemoteAPIServiceFollower, type FollowedAPIService } from './remote-apiservice-follower.js';
import { log } from '../../lib/log/logger.js';

/** kube's aggregatedDiscoveryTimeout: a backend's discovery must come faster than this. */
const discoveryTimeoutMs = 5_000;
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface VersionEntry {
  version: string;
  resources?: unknown[];
}

/** The last discovery read from a backend: its group-versions' entries, and the ETag to ask with next time. */
interface Fetched {
  entries: Map<string, VersionEntry>;
  etag?: string;
}

/**
 * kube's aggregated discovery manager: for each service-backed APIService, the backend's aggregated discovery
 * (`/apis`, apidiscovery.k8s.io/v2, asked with the last ETag), or — when the backend answers 406 — its legacy
 * `/apis/<group>/<version>` converted. Read when the APIService changes (its
 * Available condition included) and every minute; the version is `Current` when read, `Stale` with what was last read
 * when the read fails (not Available: the proxy would answer 503), `Stale` without resources when nothing was ever read.
 */
export class RemoteDiscoveryManager implements RemoteDiscovery, Controller {
  readonly name = 'aggregated-discovery-manager';
  private readonly follower: RemoteAPIServiceFollower;
  private readonly fetched = new Map<string, Fetched>();
  private readonly versions = new Map<string, object>();
  private gen = 0;

  constructor(container: DependencyContainer, resyncMs?: number) {
    this.follower = new RemoteAPIServiceFollower(container, 'reading the discovery of APIService', (name, followed) => this.sync(name, followed), resyncMs);
  }

  get generation(): number {
    return this.gen;
  }

  versionDiscovery(remote: RemoteAPIService): object | undefined {
    return this.versions.get(remote.name);
  }

  start(): Promise<void> {
    return this.follower.start();
  }

  async stop(): Promise<void> {
    this.follower.stop();
  }

  private async sync(name: string, followed: FollowedAPIService | undefined): Promise<void> {
    if (!followed) {
      this.fetched.delete(name);
      this.set(name, undefined);
      return;
    }
    const { remote } = followed;
    // not Available: the proxy would answer 503, so kube's read fails
    let current = followed.available;
    if (current) {
      try {
        this.fetched.set(name, await fetchDiscovery(remote, this.follower.route, this.fetched.get(name)));
      } catch (err) {
        current = false;
        log.error(`reading the discovery of APIService ${name}: ${(err as Error).message}`);
      }
    }
    const entry = this.fetched.get(name)?.entries.get(`${remote.group}/${remote.version}`);
    this.set(name, { version: remote.version, ...(entry?.resources?.length ? { resources: entry.resources } : {}), freshness: current ? 'Current' : 'Stale' });
  }

  private set(name: string, entry: object | undefined): void {
    if (JSON.stringify(entry) === JSON.stringify(this.versions.get(name))) return;
    if (entry) this.versions.set(name, entry);
    else this.versions.delete(name);
    this.gen++;
  }
}

async function fetchDiscovery(remote: RemoteAPIService, route: BackendRoute, last: Fetched | undefined): Promise<Fetched> {
  const headers = { Accept: aggregatedAccept, ...(last?.etag ? { 'If-None-Match': last.etag } : {}) };
  const res = await backendGet(remote, route, '/apis', headers, discoveryTimeoutMs);
  if (res.status === 304 && last) return last;
  // 406: the backend has no aggregated discovery
  if (res.status === 406) return fetchLegacy(remote, route);
  if (res.status !== 200) throw new Error(`service ${remote.service.namespace}/${remote.service.name} returned non-success response code: ${res.status}`);
  const list = parseJson(res.body) as { kind?: string; items?: { metadata?: { name?: string }; versions?: VersionEntry[] }[] } | undefined;
  if (list?.kind !== 'APIGroupDiscoveryList') throw new Error(`service ${remote.service.namespace}/${remote.service.name} answered /apis without an APIGroupDiscoveryList`);
  const entries = new Map<string, VersionEntry>();
  for (const group of list.items ?? []) for (const v of group.versions ?? []) entries.set(`${group.metadata?.name ?? ''}/${v.version}`, v);
  const etag = res.headers.etag;
  return { entries, ...(etag ? { etag } : {}) };
}

/** A backend without aggregated discovery: its APIResourceList, converted as kube converts it. */
async function fetchLegacy(remote: RemoteAPIService, route: BackendRoute): Promise<Fetched> {
  const path = `/apis/${remote.group}/${remote.version}`;
  const res = await backendGet(remote, route, path, { Accept: 'application/json' }, discoveryTimeoutMs);
  const list = res.status === 200 ? (parseJson(res.body) as { resources?: unknown } | undefined) : undefined;
  if (!list || !Array.isArray(list.resources)) throw new Error(`failed to download legacy discovery for ${path}: ${res.status} ${res.body.slice(0, 200)}`);
  return { entries: new Map([[`${remote.group}/${remote.version}`, { version: remote.version, resources: legacyResourceDiscovery(list.resources) }]]) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
