import type { ResourceType, ResourceVersionDef } from '../contracts/resource-type.js';
import type { UserInfo } from '../contracts/authenticator.js';
import type { WritePipeline } from './write-pipeline.js';

/**
 * What the generic store knows about one write, wherever it comes from: an HTTP request (see
 * handlers/write-request-of.ts) or a controller writing through the loopback client.
 */
export interface WriteRequest {
  rt: ResourceType;
  /** The version the written objects are in (the one the client addressed). */
  version: string;
  versionDef: ResourceVersionDef;
  user: UserInfo;
  namespace: string;
  /** The object written ('' for a create: its name is the object's). */
  name: string;
  /** '' for the main resource. */
  subresource: string;
  dryRun: boolean;
  /** Who owns the fields this write sets (managedFields): the fieldManager option, else the client's User-Agent. */
  manager: string;
  /** The fieldManager option as the client sent it (admission sees it in the write's options), if any. */
  fieldManagerOption?: string;
  pipeline: WritePipeline;
  /** Where admission's audit annotations go: the request's audit event (absent: kept on the write's attributes only). */
  auditAnnotations?: Record<string, string>;
  /** Receives the warnings of admission and validation, also when they refuse the write. */
  warn(warnings: readonly string[]): void;
}
