import { defineModule, type Module } from '../contracts/module.js';
import { GenerationCache } from '../discovery/generation-cache.js';
import type { ServerRoute } from '../contracts/route.js';
import { Tokens } from '../contracts/tokens.js';
import type { DocumentInfo } from './document-info.js';
import { buildOpenApiV3, buildSwagger } from './openapi-documents.js';
import { respondGroupVersion, respondSwagger } from './openapi-responses.js';

/**
 * The OpenAPI documents kubectl reads for `explain`, `apply` validation and field-validation support: /openapi/v3
 * (the index), /openapi/v3/api/v1 and /openapi/v3/apis/GROUP/VERSION (OpenAPI 3.0 per group-version), and
 * /openapi/v2 (Swagger 2.0 of everything). Rebuilt only when the registry changes.
 */
export function openapiModule(): Module {
  return defineModule('openapi', (container) => {
    const info = (): DocumentInfo => ({ title: 'Kubernetes', version: container.resolve(Tokens.Config).version.gitVersion });
    const v3 = new GenerationCache((registry) => buildOpenApiV3(registry, info()));
    const v2 = new GenerationCache((registry) => buildSwagger(registry, info()));
    const registry = () => container.resolve(Tokens.Registry);
    const routes: ServerRoute[] = [
      { path: '/openapi/v2', handle: (ctx) => respondSwagger(ctx, v2.get(registry())) },
      {
        path: '/openapi/v3',
        handle(ctx) {
          ctx.set('Content-Type', 'application/json');
          ctx.body = v3.get(registry()).root;
        },
      },
      { path: '/openapi/v3/*', handle: (ctx) => respondGroupVersion(ctx, v3.get(registry())) },
    ];
    for (const route of routes) container.register(Tokens.Route, { useValue: route });
  });
}
