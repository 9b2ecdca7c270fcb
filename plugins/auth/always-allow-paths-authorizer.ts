import type { AuthorizationAttributes, Authorizer, AuthorizerAnswer, SubjectRules } from '../../core/contracts/authorizer.js';

/**
 * Allows requests to the given paths (k8s.io/apiserver's path authorizer, `--authorization-always-allow-paths`):
 * exact paths, or prefixes written with a trailing `*`. Throws on a `*` elsewhere, with kube's message.
 */
export class AlwaysAllowPathsAuthorizer implements Authorizer {
  readonly name = 'always-allow-paths';
  private readonly paths = new Set<string>();
  private readonly prefixes: string[] = [];

  constructor(private readonly written: readonly string[]) {
    for (const path of written) {
      const p = path.replace(/^\//, '');
      const star = p.indexOf('*');
      if (star >= 0 && star !== p.length - 1) throw new Error(`only trailing * allowed in ${JSON.stringify(p)}`);
      if (star >= 0) this.prefixes.push(p.slice(0, -1));
      else this.paths.add(p);
    }
  }

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizerAnswer> {
    const path = attrs.path.replace(/^\//, '');
    const allowed = this.paths.has(path) || this.prefixes.some((prefix) => path.startsWith(prefix));
    return { decision: allowed ? 'allow' : 'no-opinion' };
  }

  /** Any verb on the paths, for everyone. */
  rulesFor(): SubjectRules {
    return { rules: this.written.length ? [{ verbs: ['*'], nonResourceURLs: this.written.map((p) => (p.startsWith('/') ? p : `/${p}`)) }] : [], incomplete: false };
  }
}
