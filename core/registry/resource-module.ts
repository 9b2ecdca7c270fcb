import type { Module } from '../contracts/module.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { PrinterColumn, ResourceType, Scope } from '../contracts/resource-type.js';
import { restStorageVerbs, type RestStorage } from '../contracts/rest-storage.js';
import { Tokens } from '../contracts/tokens.js';

export interface ResourceModuleOptions {
  /** The API group (not '': the core group is kube's own). */
  group: string;
  /** The versions served, the first being the storage version; objects are the same in every version. */
  versions: string[];
  kind: string;
  /** Default: `<kind>List`. */
  listKind?: string;
  plural: string;
  /** Default: the kind in lower case. */
  singular?: string;
  shortNames?: string[];
  categories?: string[];
  scope: Scope;
  /**
   * The object's OpenAPI v3 schema (like a CRD's openAPIV3Schema): writes are pruned, defaulted and validated by it,
   * OpenAPI publishes it (`kubectl explain`). Absent: any fields are kept.
   */
  schema?: JSONSchemaProps;
  /** `kubectl get` columns (a CRD's additionalPrinterColumns); absent: NAME and AGE. */
  printerColumns?: PrinterColumn[];
  /** The storage serving the resource: its capabilities are the resource's verbs. */
  storage: RestStorage;
  /** Subresources served by storages of their own, by name (`/<plural>/<name>/<subresource>`). */
  subresources?: Record<string, RestStorage>;
  /**
   * A `status` subresource, as a CRD's `subresources: {status: {}}`, served through the storage's `get` and `update`
   * (both required): writes of the resource keep the stored `.status` (a create stores none), writes of `/status`
   * change only `.status`, and metadata.generation counts changes of everything but the status.
   */
  statusSubresource?: boolean;
}

/** The ResourceType of a resource served from its own storage. */
function storageResourceType(o: ResourceModuleOptions): ResourceType {
  if (!o.group) throw new TypeError('resourceModule: a group is required (the core group is kube\'s own)');
  if (o.versions.length === 0) throw new TypeError(`resourceModule ${o.plural}.${o.group}: at least one version is required`);
  if (o.statusSubresource && !(o.storage.get && o.storage.update)) {
    throw new TypeError(`resourceModule ${o.plural}.${o.group}: a status subresource needs the storage's get and update`);
  }
  return {
    group: o.group,
    names: {
      plural: o.plural,
      singular: o.singular ?? o.kind.toLowerCase(),
      kind: o.kind,
      listKind: o.listKind ?? `${o.kind}List`,
      ...(o.shortNames ? { shortNames: o.shortNames } : {}),
      ...(o.categories ? { categories: o.categories } : {}),
    },
    scope: o.scope,
    versions: o.versions.map((name, i) => ({
      name,
      served: true,
      storage: i === 0,
      ...(o.schema ? { schema: o.schema } : {}),
      ...(o.printerColumns ? { printerColumns: o.printerColumns } : {}),
      ...(o.statusSubresource ? { subresources: { status: true } } : {}),
    })),
    // As for custom resources: a PUT must name the resourceVersion it replaces.
    allowUnconditionalUpdate: false,
    verbs: restStorageVerbs(o.storage),
    returnDeletedObject: true, // a storage's delete returns what it deleted
    storage: o.storage,
    ...(o.subresources ? { storageSubresources: o.subresources } : {}),
  };
}

/**
 * A module serving a resource from its own storage (computed on read, another database, an external API): kapi
 * provides discovery, OpenAPI, every codec, Tables, selectors, admission and watch framing around it.
 */
export function resourceModule(o: ResourceModuleOptions): Module {
  const rt = storageResourceType(o);
  return (c) => c.register(Tokens.BuiltinResource, { useValue: rt });
}
