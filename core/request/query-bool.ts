/**
 * A boolean query parameter as kube's parameter codec decodes it (apimachinery runtime.Convert_Slice_string_To_bool
 * and its *bool twin): absent → undefined; "0", or "false" in any letter case (Go's strings.EqualFold, hence the
 * Unicode folding), → false; anything else → true, including "True", "yes", an empty value and a bare `?name`.
 * Clients rely on it: the Python client sends `watch=True`.
 */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  return !(raw === '0' || /^false$/iu.test(raw));
}
