import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from '../../core/contracts/admission-attributes.js';
import type { Metrics } from '../../core/contracts/metrics.js';
import type { NamespaceLookup } from '../../core/contracts/namespace-lookup.js';
import { ApiError, errors } from '../../core/contracts/api-error.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { ServiceResolver } from '../../core/contracts/service-resolver.js';
import { apiVersionOf, type KubeObject } from '../../core/contracts/resource-type.js';
import { admissionRequest, type AdmissionRequest } from '../admission-request.js';
import { ruleMatches } from '../matching/admission-rules.js';
import { namespaceSelectorMatches, objectSelectorMatches } from '../matching/selectors.js';
import type { WebhookAccessor } from './webhook-accessor.js';
import type { AuthorizationChain } from '../../core/contracts/authorizer.js';
import { AuthorizationChecks } from '../policy/cel/authorization-checks.js';

/** What matching a webhook against a request yields: the resource and kind (version) it is called for. */
export interface WebhookInvocation {
  hook: WebhookAccessor;
  resource: GroupVersionResource;
  kind: GroupVersionKind;
  /** The AdmissionRequest sent to it (and seen by its match conditions), with objects in the invocation's version. */
  request: AdmissionRequest;
}

/** What the webhook plugins need of the server: namespaces and served types to match, Services to call through. */
export interface MatchContext {
  namespaces: NamespaceLookup;
  registry: ResourceRegistry;
  /** Where `clientConfig.service` webhooks are dialled. */
  services: ServiceResolver;
  /** The server's authorizers, which match conditions' `authorizer` asks. */
  authorization: () => AuthorizationChain;
  /** Where each call's duration is observed (absent: nowhere). */
  metrics?: Metrics;
}

/**
 * The object as another served version of its resource presents it, converted as kube's converter for the resource
 * does (a CRD's conversion strategy: None, or its conversion webhook).
 */
export async function objectInVersion<T extends KubeObject | null>(obj: T, resource: GroupVersionResource, registry: ResourceRegistry): Promise<T> {
  const apiVersion = apiVersionOf(resource.group, resource.version);
  const rt = registry.get(resource.group, resource.resource);
  if (!obj || obj.apiVersion === apiVersion || !rt) return obj;
  return (await registry.converterFor(rt).convertObject(obj, apiVersion)) as T;
}

/** The same resource in its other served versions (kube's EquivalentResourcesFor, minus the requested one). */
function equivalents(attrs: AdmissionAttributes, registry: ResourceRegistry): GroupVersionResource[] {
  const { group, version, resource } = attrs.resource;
  const rt = registry.get(group, resource);
  return (rt?.versions ?? []).filter((v) => v.served && v.name !== version).map((v) => ({ group, version: v.name, resource }));
}

/** Which resource (and version) a webhook's rules match: the request's own, else with Equivalent an equivalent one. */
function matchedResource(hook: WebhookAccessor, attrs: AdmissionAttributes, registry: ResourceRegistry): GroupVersionResource | undefined {
  const rules = hook.hook.rules ?? [];
  if (rules.some((r) => ruleMatches(r, attrs, 'Exact'))) return attrs.resource;
  if (hook.matchPolicy !== 'Equivalent') return undefined;
  const others = equivalents(attrs, registry);
  for (const rule of rules) {
    for (const resource of others) if (ruleMatches(rule, { ...attrs, resource }, 'Exact')) return resource;
  }
  return undefined;
}

/** The AdmissionRequest for an invocation: kind/resource and objects in the matched version, request* as asked. */
async function invocationRequest(attrs: AdmissionAttributes, resource: GroupVersionResource, kind: GroupVersionKind, registry: ResourceRegistry): Promise<AdmissionRequest> {
  const request = admissionRequest(attrs);
  if (resource.version === attrs.resource.version) return request;
  return {
    ...request,
    kind,
    resource,
    object: await objectInVersion(request.object, resource, registry),
    oldObject: await objectInVersion(request.oldObject, resource, registry),
  };
}

/**
 * kube's ShouldCallHook: the invocation when the webhook applies to the request, else undefined. Rules (with the
 * match policy), then the object and namespace selectors (a namespace that cannot be found is its 404), then the
 * match conditions: one false skips the webhook; one that fails to evaluate is a 403 under failurePolicy Fail and
 * skips the webhook under Ignore.
 */
export async function shouldCallHook(hook: WebhookAccessor, attrs: AdmissionAttributes, ctx: MatchContext): Promise<WebhookInvocation | undefined> {
  const resource = matchedResource(hook, attrs, ctx.registry);
  if (!resource) return undefined;
  if (hook.selectors instanceof ApiError) throw hook.selectors;
  if (!objectSelectorMatches(hook.selectors.object, attrs)) return undefined;
  if (!(await namespaceSelectorMatches(hook.selectors.namespace, attrs, ctx.namespaces))) return undefined;
  const kind = resource === attrs.resource ? attrs.kind : { ...attrs.kind, version: resource.version };
  const request = await invocationRequest(attrs, resource, kind, ctx.registry);
  const checks = new AuthorizationChecks(ctx.authorization);
  const conditions = await checks.settled(() => hook.matchConditions.evaluate(request, checks));
  if (conditions.matches === false) return undefined;
  if (conditions.matches === 'error') {
    if (hook.ignoreFailures) return undefined;
    throw errors.forbidden({ group: attrs.resource.group, resource: attrs.resource.resource, ...(attrs.name ? { name: attrs.name } : {}) }, conditions.message);
  }
  return { hook, resource, kind, request };
}
