import { customResourceColumns } from './crd-printer-columns.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import { namesWithDefaults, type Crd } from './crd-types.js';
import type { CustomResourceConversion } from '../../core/contracts/conversion-settings.js';
import type { ServiceResolver } from '../../core/contracts/service-resolver.js';

/** In the order kube lists them in discovery. */
export const customResourceVerbs = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** The served resource an established CRD defines, under its accepted names (its conversion webhook's Services found through `services`). */
export function crdToResourceType(crd: Crd, services: ServiceResolver): ResourceType {
  const names = namesWithDefaults(crd.status?.acceptedNames?.plural ? crd.status.acceptedNames : crd.spec.names);
  return {
    group: crd.spec.group,
    names,
    scope: crd.spec.scope,
    allowUnconditionalUpdate: false,
    verbs: customResourceVerbs,
    definedBy: { crd: crd.metadata!.name! },
    returnDeletedObject: true,
    defaultOnRead: true,
    conversion: conversionOf(crd, services),
    ...(crd.metadata?.annotations ? { annotations: crd.metadata.annotations } : {}),
    versions: crd.spec.versions.map((v) => ({
      name: v.name,
      served: v.served,
      storage: v.storage,
      deprecated: v.deprecated,
      deprecationWarning: v.deprecationWarning,
      schema: v.schema?.openAPIV3Schema,
      printerColumns: [...customResourceColumns(v.additionalPrinterColumns)],
      subresources: { status: Boolean(v.subresources?.status), scale: v.subresources?.scale },
      selectableFields: v.selectableFields,
    })),
  };
}

/** The CRD's conversion settings (validation made sure a Webhook strategy comes with a webhook); none for strategy None. */
function conversionOf(crd: Crd, services: ServiceResolver): CustomResourceConversion | undefined {
  const conversion = crd.spec.conversion;
  const clientConfig = conversion?.webhook?.clientConfig;
  if (conversion?.strategy !== 'Webhook' || !clientConfig) return undefined;
  return { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: conversion.webhook?.conversionReviewVersions ?? [], services } };
}
