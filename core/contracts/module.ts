import type { DependencyContainer, InjectionToken } from 'tsyringe';

/**
 * A unit of server composition: registers providers under `Tokens` in the server's container. A plain function is an
 * anonymous module; `defineModule` gives one a name, the modules it needs and the single-valued tokens it replaces.
 */
export interface Module {
  (container: DependencyContainer): void;
  /** The module's name, for other modules' `needs` and for error messages. */
  readonly moduleName?: string;
  /** Names of modules that must be among the server's modules too (checked by `createApiServer`). */
  readonly needs?: readonly string[];
  /** Single-valued tokens (e.g. `Tokens.KVStore`) this module provides although an earlier module provided them. */
  readonly replaces?: readonly InjectionToken<unknown>[];
}

export interface ModuleOptions {
  needs?: readonly string[];
  replaces?: readonly InjectionToken<unknown>[];
}

/** A named module: `defineModule('my-storage', (c) => c.register(Tokens.KVStore, …), { replaces: [Tokens.KVStore] })`. */
export function defineModule(name: string, register: (container: DependencyContainer) => void, options: ModuleOptions = {}): Module {
  return Object.assign((container: DependencyContainer) => register(container), {
    moduleName: name,
    needs: options.needs ?? [],
    replaces: options.replaces ?? [],
  });
}

/**
 * A getter that resolves `token` from the container on its first call and keeps what it got: for a provider a
 * module's objects need while serving that a later module registers (resolving on every call costs a container
 * look-up per request).
 */
export function resolveLater<T>(container: DependencyContainer, token: InjectionToken<T>): () => T {
  let resolved: { value: T } | undefined;
  return () => (resolved ??= { value: container.resolve(token) }).value;
}

/** As resolveLater, for a token that may have no provider (a module not composed in): undefined then. */
export function resolveOptionalLater<T>(container: DependencyContainer, token: InjectionToken<T>): () => T | undefined {
  let resolved: { value: T | undefined } | undefined;
  return () => (resolved ??= { value: container.isRegistered(token, true) ? container.resolve(token) : undefined }).value;
}

/** As resolveLater, for a token that takes any number of providers: all of them, in order (none: empty). */
export function resolveAllLater<T>(container: DependencyContainer, token: InjectionToken<T>): () => readonly T[] {
  let resolved: readonly T[] | undefined;
  return () => (resolved ??= container.isRegistered(token, true) ? container.resolveAll(token) : []);
}
