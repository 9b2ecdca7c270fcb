import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { Module } from '../contracts/module.js';
import { singleValuedTokens } from '../contracts/tokens.js';

/** The container methods that add a provider (their first argument is the token). */
const registering = new Set<PropertyKey>(['register', 'registerInstance', 'registerSingleton', 'registerType']);

/**
 * Runs the modules in order on the server's container, after checking that every module they name in `needs` is
 * there. A single-valued token gets one provider: a second one is an error unless its module says it replaces it.
 * `preset` names the single-valued tokens the server itself registered.
 */
export function registerModules(container: DependencyContainer, modules: readonly Module[], preset: readonly InjectionToken<unknown>[]): void {
  const names = new Set<string>();
  for (const m of modules) {
    if (m.moduleName === undefined) continue;
    if (names.has(m.moduleName)) throw new TypeError(`kapi: the "${m.moduleName}" module is among the server's modules twice`);
    names.add(m.moduleName);
  }
  for (const m of modules) {
    for (const need of m.needs ?? []) {
      if (!names.has(need)) throw new TypeError(`kapi: the "${m.moduleName ?? '(unnamed)'}" module needs the "${need}" module, which is not among the server's modules`);
    }
  }
  const providedBy = new Map<InjectionToken<unknown>, string>(preset.map((t) => [t, 'the server itself']));
  modules.forEach((m, i) => {
    const label = m.moduleName ? `the "${m.moduleName}" module` : `module #${i + 1} (unnamed)`;
    m(
      guarded(container, (token) => {
        if (!singleValuedTokens.has(token)) return;
        const earlier = providedBy.get(token);
        if (earlier !== undefined && earlier !== label && !m.replaces?.includes(token)) {
          throw new TypeError(
            `kapi: ${label} provides ${tokenName(token)}, which ${earlier} provides already; ` +
              `a module that replaces it says so: defineModule(name, register, { replaces: [${tokenName(token)}] })`,
          );
        }
        providedBy.set(token, label);
      }),
    );
  });
}

/** The container as a module sees it: every registration is reported to `onRegister` first. */
function guarded(container: DependencyContainer, onRegister: (token: InjectionToken<unknown>) => void): DependencyContainer {
  const proxy: DependencyContainer = new Proxy(container, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (!registering.has(prop)) return value.bind(target);
      return (token: InjectionToken<unknown>, ...rest: unknown[]) => {
        onRegister(token);
        const result = (value as (...args: unknown[]) => unknown).call(target, token, ...rest);
        return result === target ? proxy : result; // `c.register(a).register(b)` stays guarded
      };
    },
  });
  return proxy;
}

/** `Tokens.KVStore` for the symbol `kapi.KVStore`. */
function tokenName(token: InjectionToken<unknown>): string {
  return typeof token === 'symbol' && token.description?.startsWith('kapi.') ? `Tokens.${token.description.slice(5)}` : String(token);
}
