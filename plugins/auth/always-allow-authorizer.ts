import type { Authorizer, Decision, SubjectRules } from '../../core/contracts/authorizer.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';

/** Allows every request (kube's `--authorization-mode=AlwaysAllow`; development servers). */
export class AlwaysAllowAuthorizer implements Authorizer {
  readonly name = 'always-allow';

  async authorize(): Promise<{ decision: Decision }> {
    return { decision: 'allow' };
  }

  /** Everything, as kube's: `*` on every resource and every non-resource URL. */
  rulesFor(): SubjectRules {
    return {
      rules: [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ],
      incomplete: false,
    };
  }
}

/** Registers an `AlwaysAllowAuthorizer`. */
export function alwaysAllow(): Module {
  return defineModule('always-allow', (container) => {
    container.register(Tokens.Authorizer, { useValue: new AlwaysAllowAuthorizer() });
  });
}
