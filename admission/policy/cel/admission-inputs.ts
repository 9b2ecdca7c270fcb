/**
 * The CEL values of one admission request (Kubernetes' CreateAdmissionRequest / CreateNamespaceObject converted to
 * unstructured data): `request` without uid, object and oldObject; `namespaceObject` with only the metadata fields
 * Kubernetes exposes; the request's authorizer. Each value is built on first use: most expressions read `object`
 * only.
 */
import type { AdmissionRequest } from '../../admission-request.js';
import { admissionRequest } from '../../admission-request.js';
import type { AdmissionAttributes } from '../../../core/contracts/admission-attributes.js';
import type { KubeObject } from '../../../core/contracts/resource-type.js';
import type { NamespaceLookup } from '../../../core/contracts/namespace-lookup.js';
import { errors } from '../../../core/contracts/api-error.js';
import type { Value } from '../../../lib/cel/values.js';
import type { AdmissionInputs } from './admission-activation.js';
import { AuthorizerValue, requestResourceCheck, type CelAuthorizer, type ResourceCheckValue } from './authorizer-library.js';
import { dynValue } from '../../../lib/cel/dyn-values.js';

/** `request` as expressions see it: omitempty fields left out, `uid` empty, `dryRun` always present. */
export function requestValue(req: AdmissionRequest): Value {
  const { uid, object, oldObject, ...rest } = req;
  void uid;
  void object;
  void oldObject;
  const { username, uid: userUid, groups, extra } = req.userInfo;
  const userInfo = {
    ...(username ? { username } : {}),
    ...(userUid ? { uid: userUid } : {}),
    ...(groups?.length ? { groups } : {}),
    ...(extra && Object.keys(extra).length ? { extra } : {}),
  };
  return dynValue({ uid: '', ...rest, userInfo, options: req.options });
}

const NAMESPACE_META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'finalizers',
] as const;

/** `namespaceObject`: the namespace's status, spec and part of its metadata; null for cluster-scoped requests. */
export function namespaceValue(ns: KubeObject | null | undefined): Value {
  if (!ns) return null;
  const meta = (ns.metadata ?? {}) as Record<string, unknown>;
  const metadata: Record<string, unknown> = { creationTimestamp: null };
  for (const f of NAMESPACE_META_FIELDS) if (meta[f] !== undefined) metadata[f] = meta[f];
  return dynValue({ metadata, spec: ns.spec ?? {}, status: ns.status ?? {} });
}

/** kube reads the request's namespace for `namespaceObject` (not for Namespaces themselves); a missing one is 404. */
export async function requestNamespaceObject(attrs: AdmissionAttributes, namespaces: NamespaceLookup): Promise<Value> {
  const isNamespace = attrs.kind.group === '' && attrs.kind.version === 'v1' && attrs.kind.kind === 'Namespace';
  if (!attrs.namespace || isNamespace) return null;
  const ns = await namespaces.lookup(attrs.namespace);
  if (!ns) throw errors.notFound({ group: '', resource: 'namespaces', name: attrs.namespace });
  return namespaceValue(ns);
}

/** What the inputs are built from: the request's objects, its AdmissionRequest (built when needed), who and what. */
interface InputSource {
  object: KubeObject | null;
  oldObject: KubeObject | null;
  request(): AdmissionRequest;
  user: AdmissionRequest['userInfo'];
  target: { group: string; resource: string; subresource: string; namespace: string; name: string };
}

class LazyInputs implements AdmissionInputs {
  private objectValue?: Value;
  private oldObjectValue?: Value;
  private requestVal?: Value;
  private authz?: AuthorizerValue;
  private rr?: ResourceCheckValue;
  readonly namespaceObject: Value = null;

  constructor(
    private readonly source: InputSource,
    private readonly celAuthorizer: CelAuthorizer,
  ) {}

  get object(): Value {
    return (this.objectValue ??= dynValue(this.source.object));
  }

  get oldObject(): Value {
    return (this.oldObjectValue ??= dynValue(this.source.oldObject));
  }

  get request(): Value {
    return (this.requestVal ??= requestValue(this.source.request()));
  }

  get authorizer(): AuthorizerValue {
    const u = this.source.user;
    this.authz ??= new AuthorizerValue({ username: u.username, groups: u.groups ?? [], ...(u.uid ? { uid: u.uid } : {}), ...(u.extra ? { extra: u.extra } : {}) }, this.celAuthorizer);
    return this.authz;
  }

  get requestResource(): ResourceCheckValue {
    return (this.rr ??= requestResourceCheck(this.authorizer, this.source.target));
  }
}

/** The inputs of an AdmissionRequest (what webhooks' match conditions see). */
export function admissionInputs(req: AdmissionRequest, authorizer: CelAuthorizer): AdmissionInputs {
  return new LazyInputs(
    {
      object: req.object,
      oldObject: req.oldObject,
      request: () => req,
      user: req.userInfo,
      target: { group: req.resource.group, resource: req.resource.resource, subresource: req.subResource ?? '', namespace: req.namespace ?? '', name: req.name ?? '' },
    },
    authorizer,
  );
}

/** The inputs of a request's admission attributes (on DELETE `object` is null, `oldObject` the stored object). */
export function attributesInputs(attrs: AdmissionAttributes, authorizer: CelAuthorizer): AdmissionInputs {
  const deleting = attrs.operation === 'DELETE';
  let req: AdmissionRequest | undefined;
  return new LazyInputs(
    {
      object: deleting ? null : attrs.object,
      oldObject: deleting ? (attrs.oldObject ?? attrs.object) : (attrs.oldObject ?? null),
      request: () => (req ??= admissionRequest(attrs)),
      user: attrs.userInfo,
      target: { group: attrs.resource.group, resource: attrs.resource.resource, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name },
    },
    authorizer,
  );
}
