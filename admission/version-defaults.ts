/**
 * kube's object defaulter as admission plugins run it after each patch they apply: a kind typed by its schema (a
 * custom resource, an own storage's) gets its version's schema defaults, as the CRD handler's defaulter gives them;
 * built-in kinds get theirs from their strategies, not here.
 */
import type { GroupVersionResource } from '../core/contracts/admission-attributes.js';
import type { ResourceRegistry } from '../core/contracts/resource-registry.js';
import { schemaTyped, servedVersion, type KubeObject } from '../core/contracts/resource-type.js';
import { compileSchema } from '../schemas/structural-schema.js';

/** Fills `obj`'s absent defaulted fields, in place, from the schema of `resource`'s version. */
export function applyVersionDefaults(registry: ResourceRegistry, resource: GroupVersionResource, obj: KubeObject): void {
  const rt = registry.get(resource.group, resource.resource);
  const schema = rt && schemaTyped(rt) ? servedVersion(rt, resource.version)?.schema : undefined;
  if (!schema) return;
  const compiled = compileSchema(schema);
  if (compiled.hasDefaults) compiled.applyDefaults(obj);
}
