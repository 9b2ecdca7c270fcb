/**
 * kube-apiserver's `--runtime-config`, as the map its flag parses into: which built-in group-versions and resources
 * the server serves. Keys: `api/all`, `api/ga`, `api/beta`, `api/alpha` (value `true` or `false`), `GROUP/VERSION`
 * and `GROUP/VERSION/RESOURCE` (`/v1`, `v1` or `api/v1` for the core group; value `true`, `false` or any other Go
 * boolean, '' meaning true). Later, narrower keys win: the `api/…` ones, then group-versions, then resources.
 * Everything a module registers with `Tokens.BuiltinResource` is subject to it; CRDs are not (naming a CRD's group is
 * an unknown group, as in kube).
 */
export type RuntimeConfig = Readonly<Record<string, string>>;

/** A runtime configuration the server refuses to start with; the message is kube-apiserver's. */
export class RuntimeConfigError extends Error {
  override readonly name = 'RuntimeConfigError';
}
