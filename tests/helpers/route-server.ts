/**
 * Unit-test harness for a module's HTTP routes, without the rest of the server:
 *
 *   const { c, registry } = registryContainer([widgets]);
 *   discoveryModule()(c);
 *   const { host, close } = await serveRoutes(c);
 */
import Koa from 'koa';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { container, type DependencyContainer } from 'tsyringe';
import { ApiError, errors } from '../../core/contracts/api-error.js';
import { ResourceTypeRegistry } from '../../core/registry/resource-registry.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import { defaultServerConfig } from '../../core/contracts/server-config.js';
import { Tokens } from '../../core/contracts/tokens.js';

export interface RouteServer {
  /** `127.0.0.1:PORT` */
  host: string;
  close(): Promise<unknown>;
}

/** A child container holding a registry of `types` and the default server config, as the discovery and OpenAPI modules need. */
export function registryContainer(types: ResourceType[]): { c: DependencyContainer; registry: ResourceTypeRegistry } {
  const c = container.createChildContainer();
  const registry = new ResourceTypeRegistry();
  for (const t of types) registry.set(t);
  c.registerInstance(Tokens.Registry, registry);
  c.registerInstance(Tokens.Config, defaultServerConfig);
  return { c, registry };
}

/**
 * Serves the routes registered in `c` (Tokens.Route) on loopback with a koa app that dispatches by path (`/x/*` matches
 * what starts with `/x/`); an unknown path is a NotFound Status, and a thrown ApiError answers with its Status.
 */
export async function serveRoutes(c: DependencyContainer): Promise<RouteServer> {
  const routes = c.resolveAll(Tokens.Route);
  const app = new Koa();
  app.use(async (ctx) => {
    const route = routes.find((r) => (r.path.endsWith('/*') ? ctx.path.startsWith(r.path.slice(0, -1)) : r.path === ctx.path));
    try {
      if (!route) throw errors.pathNotFound();
      await route.handle(ctx);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.status = err.code;
      ctx.body = err.status;
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
