import type { KubeObject, ResourceType } from './resource-type.js';
import type { UserInfo } from './authenticator.js';

/**
 * One resource's objects, read and written through kapi's own write path — system metadata, admission, validation,
 * managed fields, storage — as kube's controllers use the API through a loopback client. Errors are `ApiError`s
 * (`NotFound`, `Conflict`, `Invalid`, …) as an HTTP client would get them.
 */
export interface ResourceClient<T extends KubeObject = KubeObject> {
  /** The object (in the client's version, as a GET would answer it), or undefined. */
  get(namespace: string, name: string): Promise<T | undefined>;
  /** Every object, of one namespace or ('' or absent) of all. */
  list(namespace?: string): Promise<T[]>;
  /** Creates the object (its namespace is `metadata.namespace`); returns it as stored. */
  create(object: T): Promise<T>;
  /**
   * Updates the object: `mutate` gets a copy of what is stored now and returns the desired object; when another write
   * won in between, it is called again on the newer object (no conflict reaches the caller). With `subresource:
   * 'status'` only the status is written (for resources with a status subresource), with `finalize` a Namespace's
   * spec.finalizers.
   */
  update(namespace: string, name: string, mutate: (current: T) => T | Promise<T>, options?: { subresource?: 'status' | 'finalize' }): Promise<T>;
  /** Deletes the object, or starts its graceful deletion while finalizers remain (`deleted: false`). */
  delete(namespace: string, name: string, options?: ObjectDeleteOptions): Promise<{ object: T; deleted: boolean }>;
}

/** A delete's options, as a DeleteOptions body's (kube's 409 Conflict when a precondition does not hold). */
export interface ObjectDeleteOptions {
  /** What happens to the object's dependents (default: Background, as kube's registry.Store). */
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** The uid the object must have: one recreated under its name is left alone. */
  uid?: string;
}

export interface ResourceClientOptions {
  /** Who writes (admission sees this user). Default: kube's loopback user, `system:apiserver` in `system:masters`. */
  user?: UserInfo;
  /** The version objects are read and written in. Default: the resource's storage version. */
  version?: string;
  /** The field manager recorded in managedFields. Default: `kapi`. */
  fieldManager?: string;
  /**
   * Writes skip admission (validation still runs), as the cleanups kube makes in storage directly: a deleted CRD's
   * objects, which no webhook or policy may hold back.
   */
  skipAdmission?: boolean;
}

/**
 * Clients for any resource: a served one by its group and plural (`{ group: '', resource: 'namespaces' }`; kube's 404
 * when it is not served), or a resource type itself (served or not: a CRD's objects are cleaned up while it goes away).
 * A resource with its own storage is read and written through that storage (what it cannot do is kube's 405).
 */
export interface ObjectClients {
  forResource<T extends KubeObject = KubeObject>(resource: ResourceType | { group: string; resource: string }, options?: ResourceClientOptions): ResourceClient<T>;
}
