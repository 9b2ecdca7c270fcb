import type { DependencyContainer } from 'tsyringe';
import type { ServerRoute } from '../contracts/route.js';
import { Tokens } from '../contracts/tokens.js';

/** GET /version: the server's version.Info. */
export function versionRoute(container: DependencyContainer): ServerRoute {
  return {
    path: '/version',
    handle(ctx) {
      ctx.body = container.resolve(Tokens.Config).version;
    },
  };
}
