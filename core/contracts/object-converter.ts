import type { KubeObject } from './kube-object.js';

/** A value, or the promise of one: a converter that needs no I/O answers at once, without a microtask hop. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Converts custom resources between the versions of their CRD, as kube's converter for the CRD's
 * `spec.conversion.strategy` does. Inputs are never changed (they may be shared watch-cache objects); failures are
 * thrown as the ApiError kube-apiserver answers with.
 */
export interface ObjectConverter {
  /** True when conversions never wait (strategy None): callers may rely on plain values, never promises. */
  readonly synchronous: boolean;
  /** `obj` in `apiVersion` (group/version). Failures name the object's own group, version and kind, as kube's do. */
  convertObject(obj: KubeObject, apiVersion: string): MaybePromise<KubeObject>;
  /** The items of a list in `apiVersion`: those in another version are converted together, in one go. */
  convertList(items: readonly KubeObject[], apiVersion: string): MaybePromise<KubeObject[]>;
}
