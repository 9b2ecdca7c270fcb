import { defineModule, resolveOptionalLater, type Module } from '../contracts/module.js';
import { GenerationCache } from '../discovery/generation-cache.js';
import type { ServerRoute } from '../contracts/route.js';
import { Tokens } from '../contracts/tokens.js';
import type { DocumentInfo } from './document-info.js';
import { buildOpenApiV3, buildSwagger } from './openapi-documents.js';
import { respondGroupVersion, respondSwagger } from './openapi-responses.js';

/**
 * The OpenAPI documents kubectl reads for `explain`, `apply` validation and field-validation support: /openapi/v3
 * (the index), /openapi/v3/api/v1 and /openapi/v3/apis/GROUP/VERSION (OpenAPI 3.0 per group-version), and
 * /openapi/v2 (Swagger 2.0 of everything). When the apiregistration module is composed in, remote group-versions are
 * their backends' documents (`Tokens.RemoteOpenAPI`): listed and served in v3, merged into v2. Rebuilt only when the
 * registry, the service-backed APIServices or what was read of their backends changes.
 */
export function openapiModule(): Module {
  return defineModule('openapi', (container) => {
    const info = (): DocumentInfo => ({ title: 'Kubernetes', version: container.resolve(Tokens.Config).version.gitVersion });
    const apiServices = resolveOptionalLater(container, Tokens.APIServices);
    const remoteOpenAPI = resolveOptionalLater(container, Tokens.RemoteOpenAPI);
    const remote = () => ({ apiServices: apiServices(), remoteOpenAPI: remoteOpenAPI() });
    const v3Cache = new GenerationCache((registry) => buildOpenApiV3({ registry, ...remote() }, info()));
    const v2Cache = new GenerationCache((registry) => buildSwagger({ registry, ...remote() }, info()));
    const sources = () => [container.resolve(Tokens.Registry), apiServices(), remoteOpenAPI()] as const;
    const v2 = () => v2Cache.get(...sources());
    const v3 = () => v3Cache.get(...sources());
    const routes: ServerRoute[] = [
      { path: '/openapi/v2', handle: (ctx) => respondSwagger(ctx, v2()) },
      {
        path: '/openapi/v3',
        handle(ctx) {
          ctx.set('Content-Type', 'application/json');
          ctx.body = v3().root;
        },
      },
      { path: '/openapi/v3/*', handle: (ctx) => respondGroupVersion(ctx, v3()) },
    ];
    for (const route of routes) container.register(Tokens.Route, { useValue: route });
  });
}

