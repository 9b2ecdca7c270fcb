import type { KubeObject } from '../registry/resource-type.js';
import type { UserInfo } from '../auth/authenticator.js';

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

/** What an admission plugin is told about one request (kube's admission.Attributes). */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** The object to be stored; mutating plugins may change or replace it. On DELETE, the stored object. */
  object: KubeObject;
  /** The stored object on UPDATE and DELETE. */
  oldObject?: KubeObject;
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
}
