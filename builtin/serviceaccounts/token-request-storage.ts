import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { RestContext, RestStorage } from '../../core/contracts/rest-storage.js';
import type { ObjectClients } from '../../core/contracts/object-client.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import { errors, fieldErrors } from '../../core/contracts/api-error.js';
import { goDecode } from '../../lib/go/json-decoding.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import type { ServiceAccountTokenConfig } from '../../lib/serviceaccount/token-config.js';
import { serviceAccountClaims, type ClaimReference } from '../../lib/serviceaccount/token-claims.js';
import { signServiceAccountToken } from '../../lib/serviceaccount/token-signing.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { tokenRequestGoType, type BoundObjectReference, type TokenRequest } from './token-request-go-type.js';
import { tokenRequestCauses } from './token-request-validation.js';
import { serviceAccountResourceRef } from './serviceaccount-resource.js';

const kind = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
const invalidAs = { group: kind.group, resource: 'tokenrequests', kind: kind.kind };
/** authentication/v1 defaulting (SetDefaults_TokenRequestSpec): one hour. */
const defaultExpirationSeconds = 60 * 60;

/**
 * `serviceaccounts/token` (create only), as kube's TokenREST: checks the request against the URL, the account and the
 * object the token is bound to (a Secret, when kapi serves Secrets), and answers the TokenRequest with a signed token.
 */
export class TokenRequestStorage implements RestStorage {
  readonly kind = kind;
  readonly schema = builtinSchema('tokenrequest.v1');

  constructor(
    private readonly config: ServiceAccountTokenConfig,
    private readonly objects: () => ObjectClients,
    private readonly registry: () => ResourceRegistry,
  ) {}

  async create(ctx: RestContext, body: KubeObject): Promise<KubeObject> {
    const req = decode(body);
    const { namespace, name } = ctx;
    const meta = req.metadata ?? {};
    if (meta.name && meta.name !== name) {
      throw errors.invalid({ ...invalidAs, name }, [fieldErrors.invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
    }
    if (meta.namespace && meta.namespace !== namespace) {
      throw errors.invalid({ ...invalidAs, name }, [fieldErrors.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
    }
    const account = await this.objects().forResource(serviceAccountResourceRef).get(namespace, name);
    if (!account) throw errors.notFound({ ...serviceAccountResourceRef, name });
    const spec = req.spec ?? {};
    const audiences = spec.audiences?.length ? spec.audiences : this.config.audiences;
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const causes = tokenRequestCauses(spec.expirationSeconds ?? defaultExpirationSeconds);
    if (causes.length > 0) throw errors.invalid({ ...invalidAs, name: '' }, causes);
    const secret = spec.boundObjectRef ? await this.boundSecret(namespace, spec.boundObjectRef) : undefined;
    let expirationSeconds = spec.expirationSeconds ?? defaultExpirationSeconds;
    const max = this.config.maxExpirationSeconds;
    if (max > 0 && expirationSeconds > max) {
      ctx.warn?.(`requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`);
      expirationSeconds = max;
    }
    const claims = serviceAccountClaims({
      issuer: this.config.issuers[0]!,
      audiences,
      namespace,
      serviceAccount: { name, uid: account.metadata?.uid ?? '' },
      ...(secret ? { secret } : {}),
      now: now.getTime() / 1000,
      expirationSeconds,
    });
    const token = await signServiceAccountToken(claims, this.config.signingKey);
    return {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name, namespace, creationTimestamp: formatDateRFC3339(now) },
      // boundObjectRef is a pointer without omitempty in kube's type: null when not bound
      spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
      status: { token, expirationTimestamp: formatDateRFC3339(new Date(now.getTime() + expirationSeconds * 1000)) },
    };
  }

  /** The bound object: kube binds to Pods, Nodes and Secrets, of which kapi serves Secrets (when their module runs). */
  private async boundSecret(namespace: string, ref: BoundObjectReference): Promise<ClaimReference> {
    const [group, version] = ref.apiVersion?.includes('/') ? ref.apiVersion.split('/', 2) : ['', ref.apiVersion ?? ''];
    const secretsServed = this.registry().lookup('', 'v1', 'secrets') !== undefined;
    if (group !== '' || ref.kind !== 'Secret' || !secretsServed) {
      throw errors.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`);
    }
    const objName = ref.name ?? '';
    const secret = await this.objects().forResource({ group: '', resource: 'secrets' }).get(namespace, objName);
    if (!secret) throw errors.notFound({ group: '', resource: 'secrets', name: objName });
    const uid = secret.metadata?.uid ?? '';
    if (ref.uid && ref.uid !== uid) {
      throw errors.conflict(
        { group: '', resource: 'Secret', name: objName },
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    return { name: objName, uid };
  }
}

/** The body decoded into kube's TokenRequest type: a value of the wrong type is kube's 400. */
function decode(body: KubeObject): TokenRequest {
  const req = structuredClone(body);
  const { error } = goDecode(req, tokenRequestGoType);
  if (error) throw errors.badRequest(`TokenRequest in version "v1" cannot be handled as a TokenRequest: ${error}`);
  return req as TokenRequest;
}
