import type { DependencyContainer } from 'tsyringe';
import type { RemoteAPIService, RemoteOpenAPI, RemoteOpenAPIV3Document } from '../../core/contracts/api-services.js';
import type { Controller } from '../../core/contracts/controller.js';
import { contentHash } from '../../lib/k8s/content-hash.js';
import { backendGet, type BackendRoute } from './backend-get.js';
import { RemoteAPIServiceFollower, type FollowedAPIService } from './remote-apiservice-follower.js';
import { log } from '../../lib/log/logger.js';

/** How long reading one OpenAPI document from a backend may take (they can be large). */
const openapiTimeoutMs = 30_000;

interface Read {
  swagger?: { spec: object; etag?: string };
  v3?: RemoteOpenAPIV3Document;
}

/**
 * kube's OpenAPI aggregation controllers (v2 and v3) in one: for each service-backed APIService, its backend's
 * `/openapi/v2` (asked with the last ETag) and, from its `/openapi/v3` index, the document of the APIService's
 * group-version (read again only when the index's hash for it changes). Read off the request path when the APIService
 * changes and every minute, only while it is Available (else the proxy would answer 503); what was last read is kept
 * while the backend cannot be read, and dropped with the APIService.
 */
export class RemoteOpenAPIManager implements RemoteOpenAPI, Controller {
  readonly name = 'openapi-aggregation-controller';
  private readonly follower: RemoteAPIServiceFollower;
  private readonly read = new Map<string, Read>();
  private gen = 0;

  constructor(container: DependencyContainer, resyncMs?: number) {
    this.follower = new RemoteAPIServiceFollower(container, 'reading the OpenAPI of APIService', (name, followed) => this.sync(name, followed), resyncMs);
  }

  get generation(): number {
    return this.gen;
  }

  swagger(remote: RemoteAPIService): object | undefined {
    return this.read.get(remote.name)?.swagger?.spec;
  }

  v3Document(remote: RemoteAPIService): RemoteOpenAPIV3Document | undefined {
    return this.read.get(remote.name)?.v3;
  }

  start(): Promise<void> {
    return this.follower.start();
  }

  async stop(): Promise<void> {
    this.follower.stop();
  }

  private async sync(name: string, followed: FollowedAPIService | undefined): Promise<void> {
    if (!followed) {
      if (this.read.delete(name)) this.gen++;
      return;
    }
    if (!followed.available) return;
    const last = this.read.get(name) ?? {};
    const [swagger, v3] = await Promise.all([
      readSwagger(followed.remote, this.follower.route, last.swagger).catch((err: Error) => failed(name, 'v2', err, last.swagger)),
      readV3(followed.remote, this.follower.route, last.v3).catch((err: Error) => failed(name, 'v3', err, last.v3)),
    ]);
    if (swagger === last.swagger && v3 === last.v3) return;
    this.read.set(name, { ...(swagger ? { swagger } : {}), ...(v3 ? { v3 } : {}) });
    this.gen++;
  }
}

function failed<T>(name: string, what: string, err: Error, last: T): T {
  log.error(`reading the OpenAPI ${what} of APIService ${name}: ${err.message}`);
  return last;
}

/** The backend's Swagger spec; unchanged (the same object) when it answers 304, undefined when it has none (404). */
async function readSwagger(remote: RemoteAPIService, route: BackendRoute, last: Read['swagger']): Promise<Read['swagger']> {
  const res = await backendGet(remote, route, '/openapi/v2', { Accept: 'application/json', ...(last?.etag ? { 'If-None-Match': last.etag } : {}) }, openapiTimeoutMs);
  if (res.status === 304 && last) return last;
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`/openapi/v2 answered ${res.status}`);
  const spec = JSON.parse(res.body) as object;
  if (last && JSON.stringify(spec) === JSON.stringify(last.spec)) return last;
  return { spec, ...(res.headers.etag ? { etag: res.headers.etag } : {}) };
}

/** The backend's v3 document of the group-version, read when its index lists it under a hash not read yet. */
async function readV3(remote: RemoteAPIService, route: BackendRoute, last: RemoteOpenAPIV3Document | undefined): Promise<RemoteOpenAPIV3Document | undefined> {
  const index = await backendGet(remote, route, '/openapi/v3', { Accept: 'application/json' }, openapiTimeoutMs);
  if (index.status === 404) return undefined;
  if (index.status !== 200) throw new Error(`/openapi/v3 answered ${index.status}`);
  const paths = (JSON.parse(index.body) as { paths?: Record<string, { serverRelativeURL?: string }> }).paths ?? {};
  const url = paths[`apis/${remote.group}/${remote.version}`]?.serverRelativeURL;
  if (!url) return undefined;
  const listedHash = new URL(url, 'https://backend').searchParams.get('hash');
  if (last && listedHash === last.hash) return last;
  const res = await backendGet(remote, route, url, { Accept: 'application/json' }, openapiTimeoutMs);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  JSON.parse(res.body); // a document that is not JSON is not served
  const hash = listedHash ?? contentHash(res.body);
  return last?.hash === hash ? last : { json: res.body, hash };
}
