import { errors, fieldErrors } from '../contracts/api-error.js';
import { apiVersionOf, schemaTyped, type KubeObject } from '../contracts/resource-type.js';
import type { RequestScope, ResourceScope } from './request-scope.js';

/**
 * A body must be the kind the endpoint serves, in the addressed version (kube fills them in when absent). The
 * body was decoded into its Go type before (see typed-decoding.ts).
 */
export function checkTypeMeta(body: Record<string, unknown>, scope: Pick<RequestScope, 'rt' | 'version'>): KubeObject {
  const expected = expectedTypeMeta(scope);
  const wrongKind = schemaTyped(scope.rt)
    ? (kind: string) => {
        // Custom resources are decoded without a fixed type; kube reports the wrong kind as an invalid field.
        const name = (body.metadata as { name?: string } | undefined)?.name;
        return errors.invalid({ group: scope.rt.group, resource: scope.rt.names.plural, kind, name }, [fieldErrors.invalid('kind', kind, `must be ${expected.kind}`)]);
      }
    : undefined;
  const obj = requireTypeMeta(body, expected, wrongKind);
  obj.metadata ??= {};
  return obj;
}

/**
 * A body must carry the expected apiVersion and kind, or none (kube fills them in): returns it with both set.
 * `wrongKind`: the error for another kind (default: kube's 400 for a fixed Go type).
 */
export function requireTypeMeta(body: Record<string, unknown>, expected: { apiVersion: string; kind: string }, wrongKind?: (kind: string) => Error): KubeObject {
  if (body.apiVersion !== undefined && body.apiVersion !== expected.apiVersion) {
    if (typeof body.apiVersion !== 'string') throw errors.badRequest(`the object provided is unrecognized or malformed: apiVersion must be a string`);
    throw errors.badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${expected.apiVersion})`);
  }
  if (body.kind !== undefined && body.kind !== expected.kind) {
    if (typeof body.kind !== 'string') throw errors.badRequest(`the object provided is unrecognized or malformed: kind must be a string`);
    throw wrongKind?.(body.kind) ?? errors.badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${expected.kind})`);
  }
  const obj = body as KubeObject;
  obj.apiVersion = expected.apiVersion;
  obj.kind = expected.kind;
  return obj;
}

/** The apiVersion and kind an endpoint serves. */
export function expectedTypeMeta(scope: Pick<RequestScope, 'rt' | 'version'>): { apiVersion: string; kind: string } {
  return { apiVersion: apiVersionOf(scope.rt.group, scope.version), kind: scope.rt.names.kind };
}

/**
 * The body's name and namespace must agree with the URL (update, and create in a namespace); a body without a
 * namespace gets the URL's (kube's EnsureObjectNamespaceMatchesRequestNamespace), so a PUT need not repeat it.
 */
export function checkNameAndNamespace(obj: KubeObject, scope: ResourceScope): void {
  const meta = obj.metadata!;
  const { name, namespace } = scope.info;
  if (name && meta.name !== undefined && meta.name !== name) {
    throw errors.badRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`);
  }
  if (name && meta.name === undefined) meta.name = name;
  if (scope.rt.scope !== 'Namespaced') return;
  if (meta.namespace === undefined || meta.namespace === '') meta.namespace = namespace;
  else if (meta.namespace !== namespace) throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
}
