import { createPublicKey } from 'node:crypto';
import type { RouteContext, ServerRoute } from '../../core/contracts/route.js';
import type { ServiceAccountTokenConfig } from '../../lib/serviceaccount/token-config.js';
import { jwksPath, openIdConfigurationPath, openIdConfiguration, publicJwks } from '../../lib/serviceaccount/openid-metadata.js';

/** As kube's OpenID metadata server: both documents may be cached for an hour (kube's key cache age). */
const cacheControl = 'public, max-age=3600';

/** Whether kube serves discovery for this issuer: only an https URL without query or fragment is an OIDC issuer. */
function isDiscoverableIssuer(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === 'https:' && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

/**
 * ServiceAccountIssuerDiscovery: `/.well-known/openid-configuration` and `/openid/v1/jwks`, so that relying parties
 * verify ServiceAccount tokens without calling kapi's TokenReview. As in kube, not served (404) when the issuer is not
 * an https URL. The jwks_uri is `--service-account-jwks-uri`, else this server's own address as the client reached it
 * (kube takes its external address).
 */
export function openIdDiscoveryRoutes(config: ServiceAccountTokenConfig): ServerRoute[] {
  const issuer = config.issuers[0]!;
  if (!isDiscoverableIssuer(issuer)) return [];
  const keys = [createPublicKey(config.signingKey), ...config.verificationKeys];
  const jwks = publicJwks(keys).then((set) => JSON.stringify(set));
  const respond = (ctx: RouteContext, body: string, type: string) => {
    ctx.status = 200;
    ctx.body = body;
    ctx.set('Content-Type', type);
    ctx.set('Cache-Control', cacheControl);
  };
  return [
    {
      path: openIdConfigurationPath,
      handle: (ctx) => {
        const jwksUri = config.jwksUri ?? `https://${ctx.host}${jwksPath}`;
        respond(ctx, JSON.stringify(openIdConfiguration(issuer, jwksUri, keys)), 'application/json');
      },
    },
    { path: jwksPath, handle: async (ctx) => respond(ctx, await jwks, 'application/jwk-set+json') },
  ];
}
