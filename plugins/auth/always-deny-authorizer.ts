import type { Authorizer, Decision, SubjectRules } from '../../core/contracts/authorizer.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';

/** Refuses every request, as kube's `--authorization-mode=AlwaysDeny`: no opinion, with kube's reason. */
export class AlwaysDenyAuthorizer implements Authorizer {
  readonly name = 'always-deny';

  async authorize(): Promise<{ decision: Decision; reason: string }> {
    return { decision: 'no-opinion', reason: 'Everything is forbidden.' };
  }

  rulesFor(): SubjectRules {
    return { rules: [], incomplete: false };
  }
}

/** Registers an `AlwaysDenyAuthorizer`. */
export function alwaysDeny(): Module {
  return defineModule('always-deny', (container) => {
    container.register(Tokens.Authorizer, { useValue: new AlwaysDenyAuthorizer() });
  });
}
