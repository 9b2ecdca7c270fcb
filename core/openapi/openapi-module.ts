import { defineModule, resolveOptionalLater, type Module } from '../contracts/module.js';
import type { Controller } from '../contracts/controller.js';
import type { ServerRoute } from '../contracts/route.js';
import { Tokens } from '../contracts/tokens.js';
import type { DocumentInfo } from './document-info.js';
import { OpenApiCache } from './openapi-cache.js';
import { respondGroupVersion, respondIndex, respondSwagger } from './openapi-responses.js';

/**
 * The OpenAPI documents kubectl reads for `explain`, `apply` validation and field-validation support: /openapi/v3
 * (the index), /openapi/v3/api/v1 and /openapi/v3/apis/GROUP/VERSION (OpenAPI 3.0 per group-version), and
 * /openapi/v2 (Swagger 2.0 of everything). When the apiregistration module is composed in, remote group-versions are
 * their backends' documents (`Tokens.RemoteOpenAPI`): listed and served in v3, merged into v2. Kept per group-version
 * and rebuilt in the background when the registry or the service-backed APIServices change (openapi-cache.ts).
 */
export function openapiModule(): Module {
  return defineModule('openapi', (container) => {
    const info = (): DocumentInfo => ({ title: 'Kubernetes', version: container.resolve(Tokens.Config).version.gitVersion });
    const apiServices = resolveOptionalLater(container, Tokens.APIServices);
    const remoteOpenAPI = resolveOptionalLater(container, Tokens.RemoteOpenAPI);
    const sources = () => ({ registry: container.resolve(Tokens.Registry), apiServices: apiServices(), remoteOpenAPI: remoteOpenAPI() });
    const cache = new OpenApiCache(sources, info);
    let unsubscribe: (() => void)[] = [];
    // Without it running (a module served alone), documents are built when asked for, still in slices.
    const builder: Controller = {
      name: 'openapi-builder',
      async start() {
        const refresh = () => cache.refresh();
        unsubscribe = [sources().registry.onChange(refresh), apiServices()?.onChange(refresh) ?? (() => undefined)];
        refresh();
      },
      async stop() {
        for (const u of unsubscribe) u();
      },
    };
    container.register(Tokens.Controller, { useValue: builder });
    const routes: ServerRoute[] = [
      { path: '/openapi/v2', handle: async (ctx) => respondSwagger(ctx, () => cache.swagger()) },
      { path: '/openapi/v3', handle: async (ctx) => respondIndex(ctx, await cache.root()) },
      { path: '/openapi/v3/*', handle: (ctx) => respondGroupVersion(ctx, (key) => cache.groupVersion(key)) },
    ];
    for (const route of routes) container.register(Tokens.Route, { useValue: route });
  });
}
