import type { KubeObject, ResourceStrategy } from './resource-type.js';

/**
 * Strategy hooks for the resource type of one group/kind, registered under `Tokens.Strategy`: a built-in kind, a
 * CRD-defined kind (applied whenever a CRD of that group/kind is established, before or after the server started),
 * or a resource served from its own storage. They run after the type's own hooks; several registrations for one
 * group/kind all run, in registration order, and their `validate` causes are reported together.
 *
 * `T` is the type of the objects of that kind; the hooks are methods, so a `StrategyRegistration<Widget>` is accepted
 * where a `StrategyRegistration` is: registering it takes its group/kind's word for `T`.
 */
export interface StrategyRegistration<T extends KubeObject = KubeObject> extends ResourceStrategy<T> {
  /** '' for the core group. */
  readonly group: string;
  /** The kind, as the type's names spell it (`Widget`, `Namespace`). */
  readonly kind: string;
}

/**
 * Declares strategy hooks for a group/kind, typed by its objects:
 *
 *   defineStrategy<Widget>({ group: 'example.com', kind: 'Widget', canonicalize(w) { … } })
 *
 * Register the result with `c.register(Tokens.Strategy, { useValue: strategy })`.
 */
export function defineStrategy<T extends KubeObject = KubeObject>(strategy: StrategyRegistration<T>): StrategyRegistration<T> {
  return strategy;
}
