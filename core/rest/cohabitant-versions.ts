import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import type { VersionView } from '../ssa/updater.js';
import type { JsonObject } from '../../schemas/structured-merge/json-value.js';
import { compileSchema } from '../../schemas/structural-schema.js';

/** Per resource type: its cohabitants' versions as the field manager sees them (built once: writes are frequent). */
const views = new WeakMap<ResourceType, ReadonlyMap<string, VersionView>>();

/**
 * The versions of the other APIs a resource's stored objects are written through (ResourceType.cohabitants), by
 * apiVersion, for the field manager to compare objects in the version of each managedFields entry; undefined when
 * there are none.
 */
export function cohabitantVersions(rt: ResourceType): ((apiVersion: string) => VersionView | undefined) | undefined {
  if (!rt.cohabitants?.length) return undefined;
  let byVersion = views.get(rt);
  if (!byVersion) {
    byVersion = new Map(
      rt.cohabitants.map(({ apiVersion, schema, converter }) => [
        apiVersion,
        {
          model: compileSchema(schema).mergeModel,
          convert: (obj: JsonObject) => {
            const converted = converter.convertObject(obj as KubeObject, apiVersion);
            if (converted instanceof Promise) throw new Error(`kapi: the conversion to ${apiVersion} of a cohabiting resource must be synchronous`);
            return converted as JsonObject;
          },
        },
      ]),
    );
    views.set(rt, byVersion);
  }
  const known = byVersion;
  return (apiVersion) => known.get(apiVersion);
}
