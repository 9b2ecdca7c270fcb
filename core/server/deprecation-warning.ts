import type { ResourceType, ResourceVersionDef } from '../contracts/resource-type.js';
import { apiVersionOf } from '../contracts/resource-type.js';
import { compareVersionPriority } from '../discovery/version-priority.js';

/**
 * The warning a deprecated version answers with: its own `deprecationWarning`, or kube's default text naming the
 * preferred non-deprecated served version (`example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget`).
 */
export function deprecationWarning(rt: ResourceType, version: ResourceVersionDef): string {
  if (version.deprecationWarning) return version.deprecationWarning;
  const kind = rt.names.kind;
  const text = `${apiVersionOf(rt.group, version.name)} ${kind} is deprecated`;
  const better = rt.versions.filter((v) => v.served && !v.deprecated).sort((a, b) => compareVersionPriority(a.name, b.name))[0];
  return better ? `${text}; use ${apiVersionOf(rt.group, better.name)} ${kind}` : text;
}
