import type { Authorizer, Decision } from '../../core/contracts/authorizer.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';

/** Allows every request of an authenticated user (development servers). */
export class AlwaysAllowAuthorizer implements Authorizer {
  readonly name = 'always-allow';

  async authorize(): Promise<{ decision: Decision }> {
    return { decision: 'allow' };
  }
}

/** Registers an `AlwaysAllowAuthorizer`. */
export function alwaysAllow(): Module {
  return defineModule('always-allow', (container) => {
    container.register(Tokens.Authorizer, { useValue: new AlwaysAllowAuthorizer() });
  });
}
