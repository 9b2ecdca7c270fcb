const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

interface KubeVersion {
  major: number;
  /** 2 for GA, 1 for beta, 0 for alpha. */
  stability: number;
  minor: number;
}

function parse(version: string): KubeVersion | undefined {
  const m = kubeVersion.exec(version);
  if (!m) return undefined;
  return { major: Number(m[1]), stability: m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, minor: Number(m[3] ?? 0) };
}

/**
 * Orders version names by Kubernetes version priority (negative when `a` comes first): GA before beta before alpha,
 * higher major then higher minor first, and names that do not look like Kubernetes versions last, alphabetically.
 * E.g. v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10.
 */
export function compareVersionPriority(a: string, b: string): number {
  const va = parse(a);
  const vb = parse(b);
  if (!va || !vb) {
    if (va) return -1;
    if (vb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return vb.stability - va.stability || vb.major - va.major || vb.minor - va.minor;
}
