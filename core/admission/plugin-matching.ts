import type { AdmissionAttributes } from '../contracts/admission-attributes.js';
import type { AdmissionPlugin, AdmissionRule } from '../contracts/admission-plugin.js';
import { resourcePatternsMatch } from '../../lib/k8s/resource-patterns.js';

/** Whether a plugin handles a request: one of its operations, and one of its rules matching the (sub)resource. */
export function pluginMatches(plugin: AdmissionPlugin, attrs: AdmissionAttributes): boolean {
  if (!plugin.operations.includes('*') && !plugin.operations.includes(attrs.operation)) return false;
  return plugin.rules.some((rule) => ruleMatches(rule, attrs.resource.group, attrs.resource.resource, attrs.subresource));
}

function ruleMatches(rule: AdmissionRule, group: string, resource: string, subresource: string): boolean {
  if (!rule.apiGroups.includes('*') && !rule.apiGroups.includes(group)) return false;
  return resourcePatternsMatch(rule.resources, resource, subresource);
}
