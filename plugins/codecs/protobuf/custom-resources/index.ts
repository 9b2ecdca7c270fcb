import type { TypeMeta } from '../../../../core/contracts/codec.js';
import type { ResourceRegistry } from '../../../../core/contracts/resource-registry.js';
import { apiVersionOf, qualifiedName, type ResourceType } from '../../../../core/contracts/resource-type.js';
import type { ProtobufKind } from '../kinds.js';
import { buildCustomResourceKinds, type CustomResourceKinds } from './custom-resource-kinds.js';
import { log } from '../../../../lib/log/logger.js';

export { buildCustomResourceKinds, type CustomResourceKinds } from './custom-resource-kinds.js';
export { MessageJson } from './message-json.js';

interface Served {
  rt: ResourceType;
  version: string;
  list: boolean;
}

/**
 * The protobuf message for a custom resource's apiVersion/kind (or its list kind), or undefined when its CRD has
 * no usable field-number annotation for that version (`kapi gen proto --write-crd` writes one). Kubernetes has no
 * protobuf for custom resources (kubernetes/kubernetes#63677); kapi serves it when the CRD describes it.
 *
 * Compiled types are cached per ResourceType object: a changed CRD registers a new one, so its types are rebuilt.
 */
export function customResourceProtobufKinds(registry: ResourceRegistry): (t: TypeMeta) => ProtobufKind | undefined {
  let indexedGeneration = -1;
  let served = new Map<string, Served>();
  const compiled = new WeakMap<ResourceType, Map<string, CustomResourceKinds | null>>();

  const kindsOf = (rt: ResourceType, version: string): CustomResourceKinds | null => {
    let versions = compiled.get(rt);
    if (!versions) compiled.set(rt, (versions = new Map()));
    let kinds = versions.get(version);
    if (kinds === undefined) {
      try {
        kinds = buildCustomResourceKinds(rt, version) ?? null;
      } catch (err) {
        // The CRD asks for protobuf but does not describe it fully: say why once per CRD change, serve JSON meanwhile.
        log.warn(`${qualifiedName(rt)} ${version} is not served as protobuf: ${(err as Error).message}`);
        kinds = null;
      }
      versions.set(version, kinds);
    }
    return kinds;
  };

  return (t) => {
    if (registry.generation !== indexedGeneration) {
      served = index(registry);
      indexedGeneration = registry.generation;
    }
    const entry = served.get(`${t.apiVersion}|${t.kind}`);
    if (!entry) return undefined;
    const kinds = kindsOf(entry.rt, entry.version);
    return kinds ? (entry.list ? kinds.list : kinds.kind) : undefined;
  };
}

/** The served custom resource kinds and list kinds by `apiVersion|kind`. */
function index(registry: ResourceRegistry): Map<string, Served> {
  const served = new Map<string, Served>();
  for (const rt of registry.all()) {
    if (!rt.definedBy) continue;
    for (const v of rt.versions) {
      if (!v.served) continue;
      const apiVersion = apiVersionOf(rt.group, v.name);
      served.set(`${apiVersion}|${rt.names.kind}`, { rt, version: v.name, list: false });
      served.set(`${apiVersion}|${rt.names.listKind}`, { rt, version: v.name, list: true });
    }
  }
  return served;
}
