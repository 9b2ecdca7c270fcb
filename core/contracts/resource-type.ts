import type { GoStructType } from '../../lib/go/json-decoding.js';
import type { TablePrinter } from './table-types.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { StatusCause } from './status.js';
import type { CustomResourceConversion } from './conversion-settings.js';
import type { KubeObject } from './kube-object.js';
import type { UserInfo } from './authenticator.js';
import type { RestStorage } from './rest-storage.js';
import type { ObjectConverter } from './object-converter.js';

export type { KubeObject, ObjectMeta, ListMeta } from './kube-object.js';

/** A column of `kubectl get` output (CRD additionalPrinterColumns shape). */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceVersionDef {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  /** The version's openAPIV3Schema (absent for schemaless built-ins). */
  schema?: JSONSchemaProps;
  /** When absent, NAME and AGE are printed. */
  printerColumns?: PrinterColumn[];
  /** A built-in kind's own table printer (like kube's printers for core kinds); wins over printerColumns. */
  tablePrinter?: TablePrinter;
  /** `finalize`: a Namespace's, updating its spec.finalizers (PUT only). */
  subresources?: { status?: boolean; scale?: ScaleSubresource; finalize?: boolean };
  /** Fields a field selector may name beyond metadata.name (and metadata.namespace): a CRD's, or a built-in kind's own. */
  selectableFields?: { jsonPath: string }[];
  /**
   * A built-in kind's field-selector fields computed from the stored object, by name (kube's GetAttrs): for names that
   * are no JSON path of the object (`source`, an events.k8s.io Event's `regarding.name`) or values drawn from several
   * fields. Supported beside metadata.name, metadata.namespace and `selectableFields`.
   */
  fieldSelectorAttributes?: Record<string, (stored: KubeObject) => string>;
}

export interface ResourceNames {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames?: string[];
  categories?: string[];
}

export type Scope = 'Namespaced' | 'Cluster';

/**
 * Hooks a resource type can add to the generic store's semantics (like k8s.io/apiserver's RESTStrategy), typed by the
 * type's objects (`T`). A built-in sets its own in `ResourceType.strategy`; anyone adds more for a group/kind with
 * `defineStrategy` (they run after the type's own).
 */
export interface ResourceStrategy<T extends KubeObject = KubeObject> {
  /** Called before an object is created; may change it (e.g. set status). */
  prepareForCreate?(obj: T): void;
  /** Called before an update of the main resource; may change `obj` (e.g. keep `old` status). */
  prepareForUpdate?(obj: T, old: T): void;
  /** Called before an update through the status subresource; may change `obj` (e.g. keep `old` spec). */
  prepareForStatusUpdate?(obj: T, old: T): void;
  /** Called before an update through a Namespace's finalize subresource (status is kept from `old` before). */
  prepareForFinalizeUpdate?(obj: T, old: T): void;
  /** Extra validation; the causes of a 422 (empty when valid). `subresource`: '' for the main resource. */
  validate?(obj: T, old: T | undefined, subresource: string): StatusCause[];
  /**
   * Warnings about a valid new object (kube's WarningsOnCreate): sent to the client as `Warning` headers (kubectl
   * prints them), dry-run included; they never refuse the write. Called after validation, before canonicalize.
   */
  warningsOnCreate?(obj: T): string[];
  /** Warnings about a valid update (kube's WarningsOnUpdate), as warningsOnCreate; `subresource` as for validate. */
  warningsOnUpdate?(obj: T, old: T, subresource: string): string[];
  /**
   * Normalizes a valid object into its canonical form (kube's Canonicalize): called on every create and update
   * (subresources included) after validation has passed, before validating admission and storage.
   */
  canonicalize?(obj: T): void;
  /** Finalizers set on every new object (e.g. CRD cleanup). */
  defaultFinalizers?: string[];
  /** Finalizers kept outside metadata.finalizers (a Namespace's spec.finalizers); they hold deletion too. */
  extraFinalizers?(obj: T): string[];
  /** Called when deletion starts on an object that must wait for its finalizers (e.g. phase Terminating). */
  prepareForDeletion?(obj: T): void;
  /**
   * Takes what a written object needs from a pool all objects of its type share (a Service's cluster IP and node
   * ports), as kube's BeginCreate/BeginUpdate: on writes of the main resource through the generic store, after
   * mutating admission and before validation (`old`: absent on create). Returns the function told once how the write
   * ended: the stored object, or undefined when nothing was stored (what was taken goes back). On dry-run it fills the
   * object in without taking anything.
   */
  beginWrite?(obj: T, old: T | undefined, options: { dryRun: boolean }): Promise<WriteSettlement | undefined>;
  /**
   * Checks that the writing user may store this object, beyond being allowed the request (kube's RBAC escalation
   * checks on roles and bindings): on creates and updates of the main resource, before mutating admission, as kube's
   * storage checks before its admission runs (`old`: absent on create). Throws an ApiError (a 403) to refuse.
   */
  authorizeWrite?(obj: T, old: T | undefined, attrs: WriteAuthorization): Promise<void>;
}

/** Who writes, and where (see authorizeWrite). */
export interface WriteAuthorization {
  user: UserInfo;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
}

/** Told once how a write ended: the object as stored, or undefined when the write failed (see beginWrite). */
export type WriteSettlement = (stored: KubeObject | undefined) => void;

export interface ResourceType {
  /** '' for the core group. */
  group: string;
  names: ResourceNames;
  scope: Scope;
  versions: ResourceVersionDef[];
  /** Whether PUT without metadata.resourceVersion is allowed (true for most built-ins, false for custom resources). */
  allowUnconditionalUpdate: boolean;
  /**
   * Whether a PUT to a name nothing is stored under creates the object (kube's AllowCreateOnUpdate: Leases, Events,
   * Endpoints, Services), through the create admission and validation, answering 201. Absent: a 404, as for
   * ConfigMaps, CRDs and custom resources.
   */
  allowCreateOnUpdate?: boolean;
  /** Verbs served on the main resource (discovery lists them). */
  verbs: string[];
  strategy?: ResourceStrategy;
  /** How object names are validated (default: DNS-1123 subdomain; `dns1035-label`: a Service's). */
  nameValidation?: 'subdomain' | 'label' | 'dns1035-label' | 'path-segment';
  /**
   * The CustomResourceDefinition defining this type (by its metadata.name); absent for built-ins and own storages.
   * `terminating`: the CRD is being deleted, and creates are refused as kube refuses them.
   */
  definedBy?: { crd: string; terminating?: boolean };
  /**
   * Whether a DELETE through the generic store that removes the object at once answers with the object (as kube's CRD
   * storage sets ReturnDeletedObject) rather than a Success Status (kube's built-ins). An own `storage` always answers
   * with what it deleted.
   */
  returnDeletedObject?: boolean;
  /**
   * What a DELETE without a propagation policy does with the object's dependents (kube's
   * DefaultGarbageCollectionPolicy): `DeleteDependents` (the default: in the background), `OrphanDependents`, or
   * `Unsupported` (kube's Events: no policy ever keeps the object for the garbage collector).
   */
  garbageCollectionPolicy?: 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';
  /** Whether stored objects get their stored version's schema defaults when read (kube does this for custom resources). */
  defaultOnRead?: boolean;
  /**
   * The Go type kube decodes a built-in kind into: every write is decoded against it before anything reads the
   * object's fields (a value of the wrong type is kube's 400; nulls become what Go leaves).
   */
  goType?: GoStructType;
  /** True for kinds whose objects carry no metadata.generation (kube's Namespace strategy never sets one). */
  withoutGeneration?: boolean;
  /** How objects convert between versions (a CRD's spec.conversion); absent: strategy None. */
  conversion?: CustomResourceConversion;
  /**
   * The storage serving this resource when it is not kapi's generic store over the KV store (a computed resource,
   * another database, an external API): its verbs are the storage's, and it has no watch cache.
   */
  storage?: RestStorage;
  /**
   * Subresources served by storages of their own, by name (`<plural>/<name>` in discovery), whether the resource itself
   * has its own `storage` or is kapi's generic store (a ServiceAccount's `token`).
   */
  storageSubresources?: Record<string, RestStorage>;
  /**
   * With `storage`: the objects are requests answered at once and never stored (kube's TokenReview, SelfSubjectReview
   * and access reviews). A create is checked for its kind, admitted as sent and answered with what the storage
   * returns: no name is required and no system metadata or managedFields are added.
   */
  ephemeral?: boolean;
  /**
   * The resource whose stored objects these are (kube's cohabitating resources: an events.k8s.io Event is a core/v1
   * Event): kept under that resource's storage keys, in its `apiVersion`, and converted by `converter` between that
   * form and this resource's versions. Both resources then share one watch cache: a write through either is seen by
   * reads and watches of both.
   */
  storedAs?: { group: string; plural: string; apiVersion: string; converter: ObjectConverter };
  /**
   * The other APIs the same stored objects are written through (an Event's core/v1 and events.k8s.io/v1): that
   * version's apiVersion, its schema, and a synchronous converter of objects into it. A managedFields entry written
   * through one has its fieldsV1 in that version, so the field manager compares objects there to find what a write
   * takes from its manager (conflicts, changed and removed fields), as kube's versionconverter does.
   */
  cohabitants?: { apiVersion: string; schema: JSONSchemaProps; converter: ObjectConverter }[];
  /** The defining object's metadata.annotations (a CRD's), for plugins configured by them (e.g. protobuf field numbers). */
  annotations?: Record<string, string>;
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export function storageVersion(rt: ResourceType): ResourceVersionDef {
  const v = rt.versions.find((x) => x.storage);
  if (!v) throw new Error(`resource ${rt.names.plural}.${rt.group} has no storage version`);
  return v;
}

export function servedVersion(rt: ResourceType, version: string): ResourceVersionDef | undefined {
  return rt.versions.find((v) => v.name === version && v.served);
}

/**
 * Whether the type's objects are typed by their version's OpenAPI schema (pruned, defaulted and validated by it, as
 * custom resources are) rather than by a Go type: custom resources, and resources served from their own storage.
 */
export function schemaTyped(rt: ResourceType): boolean {
  return Boolean(rt.definedBy || rt.storage);
}

/** The resource's `plural.group` (or `plural` for the core group). */
export function qualifiedName(rt: ResourceType): string {
  return rt.group ? `${rt.names.plural}.${rt.group}` : rt.names.plural;
}
