import type { TypeMeta } from '../../../core/contracts/codec.js';
import type { ResourceRegistry } from '../../../core/contracts/resource-registry.js';
import { apiVersionOf } from '../../../core/contracts/resource-type.js';
import { byteFieldsOf, type ByteFields } from './byte-fields.js';

/** The byte fields of objects of an apiVersion/kind, or undefined when they have none. */
export type ByteFieldsLookup = (type: TypeMeta) => ByteFields | undefined;

/**
 * The byte fields of the served built-in kinds and their lists, read from the Go type each ResourceType carries
 * (`goType`, the one description of a built-in kind's fields). Custom resources have no `[]byte`: their schemas
 * know only JSON types, so their objects are written as they are.
 */
export function servedByteFields(registry: ResourceRegistry): ByteFieldsLookup {
  let indexedGeneration = -1;
  let byKind = new Map<string, ByteFields>();
  return (t) => {
    if (registry.generation !== indexedGeneration) {
      byKind = index(registry);
      indexedGeneration = registry.generation;
    }
    return byKind.get(`${t.apiVersion}|${t.kind}`);
  };
}

function index(registry: ResourceRegistry): Map<string, ByteFields> {
  const byKind = new Map<string, ByteFields>();
  for (const rt of registry.all()) {
    if (rt.definedBy || !rt.goType) continue;
    const kind = byteFieldsOf(rt.goType);
    if (!kind) continue;
    const list: ByteFields = {
      kind: 'struct',
      name: rt.goType.name.replace(/[^.]*$/, rt.names.listKind),
      fields: new Map([['items', { kind: 'slice', name: `[]${rt.goType.name}`, elem: kind }]]),
    };
    for (const v of rt.versions) {
      if (!v.served) continue;
      const apiVersion = apiVersionOf(rt.group, v.name);
      byKind.set(`${apiVersion}|${rt.names.kind}`, kind);
      byKind.set(`${apiVersion}|${rt.names.listKind}`, list);
    }
  }
  return byKind;
}
