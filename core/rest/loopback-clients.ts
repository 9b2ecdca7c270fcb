import type { KVStore } from '../contracts/kv-store.js';
import type { StorageTransformers } from '../contracts/value-transformer.js';
import type { ResourceRegistry } from '../contracts/resource-registry.js';
import { errors } from '../contracts/api-error.js';
import type { UserInfo } from '../contracts/authenticator.js';
import { apiVersionOf, storageVersion, schemaTyped, type KubeObject, type ResourceType } from '../contracts/resource-type.js';
import type { ObjectClients, ObjectDeleteOptions, ResourceClient, ResourceClientOptions } from '../contracts/object-client.js';
import { ResourceStore } from '../store/resource-store.js';
import { listToRequestVersion, toRequestVersion } from '../conversion/versioned-objects.js';
import { decodeTyped } from '../handlers/typed-decoding.js';
import { requireTypeMeta } from '../handlers/type-meta.js';
import { decodeCustomResource } from '../handlers/schema-stage.js';
import { GenericStore } from './generic-store.js';
import { RestStorageWriter } from './rest-storage-writer.js';
import type { ResourceWriter } from './resource-writer.js';
import { kvObjects, restStorageObjects, type StoredObjects } from './stored-objects.js';
import type { RestContext } from '../contracts/rest-storage.js';
import type { WritePipeline } from './write-pipeline.js';
import type { WriteRequest } from './write-request.js';

/** kube-apiserver's loopback identity. */
export const loopbackUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

/**
 * The object clients of a server (`Tokens.Objects`): usable once the server listens, when storage and the write
 * pipeline exist — controllers take theirs in `start`.
 */
export class LoopbackClients implements ObjectClients {
  private wiring?: { kv: KVStore; pipeline: WritePipeline; transformers?: StorageTransformers };

  constructor(private readonly registry: ResourceRegistry) {}

  attach(kv: KVStore, pipeline: WritePipeline, transformers?: StorageTransformers): void {
    this.wiring = { kv, pipeline, transformers };
  }

  forResource<T extends KubeObject = KubeObject>(resource: ResourceType | { group: string; resource: string }, options: ResourceClientOptions = {}): ResourceClient<T> {
    if (!this.wiring) throw new Error('object clients are available once the server listens (take them in a controller’s start)');
    const { kv, pipeline, transformers } = this.wiring;
    const rt = 'names' in resource ? resource : this.registry.get(resource.group, resource.resource);
    if (!rt) throw errors.pathNotFound();
    const version = options.version ?? storageVersion(rt).name;
    const writes = options.skipAdmission ? pipeline.withoutAdmission() : pipeline;
    if (!rt.storage) {
      const store = new ResourceStore(kv, rt, transformers);
      return new LoopbackClient<T>(rt, version, new GenericStore(store), kvObjects(store), writes, options);
    }
    // A resource with its own storage is read and written through it, as its requests are.
    const typed = (obj: KubeObject): KubeObject => ({ ...obj, apiVersion: obj.apiVersion ?? apiVersionOf(rt.group, version), kind: obj.kind ?? rt.names.kind });
    const user = options.user ?? loopbackUser;
    const context = (namespace: string): RestContext => ({ namespace, name: '', user, signal: neverAborted, dryRun: false });
    return new LoopbackClient<T>(rt, version, new RestStorageWriter(rt, rt.storage, neverAborted, typed), restStorageObjects(rt.storage, context, typed), writes, options);
  }
}

/** A loopback call is not a connection that can go away. */
const neverAborted = new AbortController().signal;

class LoopbackClient<T extends KubeObject> implements ResourceClient<T> {
  constructor(
    private readonly rt: ResourceType,
    private readonly version: string,
    private readonly writer: ResourceWriter,
    private readonly stored: StoredObjects,
    private readonly pipeline: WritePipeline,
    private readonly options: ResourceClientOptions,
  ) {}

  async get(namespace: string, name: string): Promise<T | undefined> {
    const stored = await this.stored.find(namespace, name);
    return stored && (this.inVersion(stored) as Promise<T>);
  }

  async list(namespace = ''): Promise<T[]> {
    return (await listToRequestVersion(this.rt, this.version, await this.stored.list(namespace))) as T[];
  }

  async create(object: T): Promise<T> {
    const obj = this.decoded(structuredClone(object));
    const req = this.request(obj.metadata?.namespace ?? '', '', '');
    return this.inVersion(await this.writer.create(req, obj)) as Promise<T>;
  }

  async update(namespace: string, name: string, mutate: (current: T) => T | Promise<T>, options: { subresource?: 'status' | 'finalize' } = {}): Promise<T> {
    const req = this.request(namespace, name, options.subresource ?? '');
    const { object } = await this.writer.update(req, async (live) => this.decoded(structuredClone(await mutate(structuredClone(live) as T))));
    return this.inVersion(object) as Promise<T>;
  }

  async delete(namespace: string, name: string, options: ObjectDeleteOptions = {}): Promise<{ object: T; deleted: boolean }> {
    const { propagationPolicy, uid } = options;
    // What delete admission sees: the DeleteOptions a client sending these would send.
    const admissionOptions: Record<string, unknown> = {};
    if (propagationPolicy) admissionOptions.propagationPolicy = propagationPolicy;
    if (uid) admissionOptions.preconditions = { uid };
    const { object, deleted } = await this.writer.delete(this.request(namespace, name, ''), {
      preconditions: { uid },
      admissionOptions,
      propagation: { propagationPolicy },
    });
    return { object: (await this.inVersion(object)) as T, deleted };
  }

  /** An object from code is decoded as a request's body would be: typed, then pruned and defaulted by its schema. */
  private decoded(obj: KubeObject): KubeObject {
    requireTypeMeta(obj, { apiVersion: apiVersionOf(this.rt.group, this.version), kind: this.rt.names.kind });
    decodeTyped(obj, { rt: this.rt, version: this.version });
    if (schemaTyped(this.rt)) {
      const schema = this.rt.versions.find((v) => v.name === this.version)?.schema;
      decodeCustomResource(obj, schema, 'Ignore', { kind: this.rt.names.kind, version: this.version });
    }
    return obj;
  }

  private async inVersion(obj: KubeObject): Promise<KubeObject> {
    return toRequestVersion(this.rt, this.version, obj);
  }

  private request(namespace: string, name: string, subresource: string): WriteRequest {
    const versionDef = this.rt.versions.find((v) => v.name === this.version);
    if (!versionDef) throw new Error(`${this.rt.names.plural}.${this.rt.group} has no version ${this.version}`);
    return {
      rt: this.rt,
      version: this.version,
      versionDef,
      user: this.options.user ?? loopbackUser,
      namespace,
      name,
      subresource,
      dryRun: false,
      manager: this.options.fieldManager ?? 'kapi',
      pipeline: this.pipeline,
      warn: () => {}, // nobody to tell: a controller's writes have no response
    };
  }
}
