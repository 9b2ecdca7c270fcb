import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { KubeObject, PrinterColumn, ResourceNames, ScaleSubresource } from '../../core/contracts/resource-type.js';
import type { WebhookClientConfig } from '../../lib/webhook/webhook-client-config.js';

/** The apiextensions.k8s.io/v1 CustomResourceDefinition fields kapi reads. */
export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object; scale?: ScaleSubresource };
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: { jsonPath: string }[];
}

export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CrdSpec {
  group: string;
  names: CrdNames;
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
  conversion?: CrdConversion;
  preserveUnknownFields?: boolean;
}

/** spec.conversion (apiextensions.k8s.io/v1 CustomResourceConversion), as written: types are checked by validation. */
export interface CrdConversion {
  strategy: string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] };
}

export interface CrdStatus {
  acceptedNames?: CrdNames;
  conditions?: CrdCondition[];
  storedVersions?: string[];
}

export interface Crd extends KubeObject {
  spec: CrdSpec;
  status?: CrdStatus;
}

/** Names with kube's defaults: singular = lower-cased kind, listKind = kind + "List". */
export function namesWithDefaults(names: CrdNames): ResourceNames {
  return {
    plural: names.plural,
    singular: names.singular || names.kind.toLowerCase(),
    kind: names.kind,
    listKind: names.listKind || `${names.kind}List`,
    ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
    ...(names.categories?.length ? { categories: names.categories } : {}),
  };
}

export function condition(crd: Crd, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}
