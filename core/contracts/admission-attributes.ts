import type { KubeObject } from './resource-type.js';
import type { UserInfo } from './authenticator.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/**
 * What an admission plugin is told about one request (kube's admission.Attributes). `T` is the type of the objects the
 * plugin's rules select (see AdmissionPlugin); the chain itself does not know it.
 */
export interface AdmissionAttributes<T extends KubeObject = KubeObject> {
  operation: AdmissionOperation;
  /** The object to be stored; mutating plugins may change it in place or replace it. On DELETE, the stored object. */
  object: T;
  /** The stored object on UPDATE and DELETE. */
  oldObject?: T;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  /** '' for the main resource, else e.g. 'status' or 'scale'. */
  subresource: string;
  namespace: string;
  name: string;
  userInfo: UserInfo;
  dryRun: boolean;
  /** The operation's options as kube sends them: CreateOptions, UpdateOptions (also for patches) or DeleteOptions. */
  options: Record<string, unknown>;
  /** Warnings for the client (sent as `Warning: 299` headers); plugins may push to it. */
  warnings: string[];
  /**
   * Audit annotations added during admission (kube's Attributes.AddAnnotation), key → value: they go into the
   * request's audit event, and later plugins see them. Add with `addAuditAnnotation`: a key is a qualified name and
   * its first value stays.
   */
  auditAnnotations?: Record<string, string>;
  /** Set by a mutating plugin that asks for the mutating phase to run once more (kube's reinvocation); see AdmissionReinvocation. */
  reinvocation?: AdmissionReinvocation;
}

/**
 * kube's admission reinvocation: a mutating plugin that changed the object after others ran (a mutating webhook whose
 * patch changed it) sets `shouldReinvoke`, and the chain runs every mutating plugin once more with `isReinvoke` set,
 * so earlier plugins see the change. `state` keeps a plugin's bookkeeping across the two rounds, keyed by plugin name.
 */
export interface AdmissionReinvocation {
  shouldReinvoke: boolean;
  isReinvoke: boolean;
  state: Map<string, unknown>;
}
