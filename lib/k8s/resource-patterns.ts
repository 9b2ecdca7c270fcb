/** kube's `resources` patterns: 'r' (no subresource), 'r/s', 'r/*', '*' (no subresources), '*\/s', '*\/*'. */
export function resourcePatternsMatch(patterns: readonly string[], resource: string, subresource: string): boolean {
  return patterns.some((pattern) => {
    const slash = pattern.indexOf('/');
    const res = slash < 0 ? pattern : pattern.slice(0, slash);
    const sub = slash < 0 ? '' : pattern.slice(slash + 1);
    if (res !== '*' && res !== resource) return false;
    return sub === '*' || sub === subresource;
  });
}
