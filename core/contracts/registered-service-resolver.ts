import type { DependencyContainer } from 'tsyringe';
import { Tokens } from './tokens.js';
import { noServiceResolver, type ServiceResolver } from './service-resolver.js';

/** The server's ServiceResolver (call it once modules are registered); a server composed without one serves no Services. */
export function registeredServiceResolver(container: DependencyContainer): ServiceResolver {
  return container.isRegistered(Tokens.ServiceResolver, true) ? container.resolve(Tokens.ServiceResolver) : noServiceResolver;
}
