/**
 * Group/version/kind texts as apimachinery prints them in conversion errors: `schema.GroupVersion.String()`
 * (`example.com/v1`, or `v1` for the core group) and `schema.GroupVersionKind.String()` (`example.com/v1, Kind=Widget`).
 */

export interface GroupVersion {
  group: string;
  version: string;
}

/** apimachinery's ParseGroupVersion; an unparsable apiVersion reads as the empty group/version, as Unstructured does. */
export function parseGroupVersion(apiVersion: unknown): GroupVersion {
  if (typeof apiVersion !== 'string' || apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  if (apiVersion.indexOf('/', slash + 1) >= 0) return { group: '', version: '' };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function groupVersionString(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** `group/version, Kind=kind` of an object's apiVersion and kind. */
export function gvkString(apiVersion: unknown, kind: unknown): string {
  const gv = parseGroupVersion(apiVersion);
  return `${gv.group}/${gv.version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}
