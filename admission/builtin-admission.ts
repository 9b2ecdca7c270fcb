import type { Module } from '../core/module.js';
import { Tokens } from '../core/tokens.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { CreatedBy } from './created-by.js';

/** kapi's own admission plugins: NamespaceLifecycle (on by default) and CreatedBy (off unless enabled by name). */
export function builtinAdmission(): Module {
  return (c) => {
    c.register(Tokens.AdmissionPlugin, { useClass: NamespaceLifecycle });
    c.register(Tokens.AdmissionPlugin, { useClass: CreatedBy });
  };
}
