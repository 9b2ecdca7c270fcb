import { queryBool } from './query-bool.js';
import { parseFieldSelector } from '../../lib/k8s/fields/field-selector.js';
import { isValidPathSegmentName } from '../../lib/k8s/names.js';

/**
 * What a request is about, parsed from its method and URL the way k8s.io/apiserver's RequestInfoFactory does:
 *   /api/v1/namespaces/{ns}/{resource}/{name}/{subresource}
 *   /apis/{group}/{version}/{resource}/{name}
 *   /api/v1/watch/... (deprecated watch prefix)
 */
export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get list watch create update patch delete deletecollection, or the lower-cased HTTP method for non-resource requests. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /**
   * A list, watch or deletecollection's `fieldSelector` and `labelSelector` query parameters as sent (first value), for
   * authorizers (kube's AuthorizeWithSelectors); not for a watch through the deprecated /watch/ path.
   */
  fieldSelector?: string;
  labelSelector?: string;
  /** `name` came from `fieldSelector=metadata.name=…` (a list or watch), not from the path. */
  nameSelected?: true;
}

const specialVerbs = new Set(['watch']);
const namespaceSubresources = new Set(['status', 'finalize']);

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
  };
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length < 1 || (parts[0] !== 'api' && parts[0] !== 'apis')) return info;
  info.apiPrefix = parts[0];
  let rest = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (rest.length < 3) return info; // /apis, /apis/g, /apis/g/v: discovery
    info.apiGroup = rest[0];
    rest = rest.slice(1);
  } else if (rest.length < 2) {
    return info; // /api, /api/v1: discovery
  }
  info.apiVersion = rest[0];
  rest = rest.slice(1);
  if (rest.some((p) => p === '')) return info;

  let watchPrefix = false;
  if (specialVerbs.has(rest[0])) {
    watchPrefix = true;
    rest = rest.slice(1);
    if (rest.length === 0) return info;
  }
  info.isResourceRequest = true;

  let namespaceItself = false;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    info.namespace = rest[1];
    // /namespaces/{ns}/{resource}/...: everything after the namespace is relative to the resource, except the
    // namespace's own subresources (/namespaces/{ns}/status, /namespaces/{ns}/finalize).
    if (rest.length > 2 && !namespaceSubresources.has(rest[2])) rest = rest.slice(2);
    else namespaceItself = true;
  }
  info.resource = rest[0];
  if (rest.length >= 2) info.name = rest[1];
  if (rest.length >= 3) info.subresource = rest[2];
  if (rest.length > 3) info.isResourceRequest = false; // deeper paths name nothing a handler serves
  if (namespaceItself) info.namespace = ''; // a Namespace is cluster-scoped: /namespaces/{name} names it

  info.verb = verbFor(method, info, query, watchPrefix);
  if ((info.verb === 'list' || info.verb === 'watch') && !watchPrefix && !info.name) {
    info.name = selectedName(query);
    if (info.name) info.nameSelected = true;
  }
  if (!watchPrefix && verbsWithSelectors.has(info.verb)) {
    const fieldSelector = query.get('fieldSelector');
    const labelSelector = query.get('labelSelector');
    if (fieldSelector !== null) info.fieldSelector = fieldSelector;
    if (labelSelector !== null) info.labelSelector = labelSelector;
  }
  return info;
}

const verbsWithSelectors = new Set(['list', 'watch', 'deletecollection']);

/**
 * The namespace kube's RequestInfo gives a request, which authorization and flow control go by: for /namespaces/{name}
 * (and its status and finalize), that name — kapi's `namespace` is '' there, a Namespace being cluster-scoped. A list
 * or watch of namespaces selecting one by name stays at the cluster scope, as in kube.
 */
export function requestNamespace(info: RequestInfo): string {
  return info.resource === 'namespaces' && !info.namespace && !info.nameSelected ? info.name : info.namespace;
}

/**
 * The name a list or watch selects with `fieldSelector=metadata.name=N`: kube authorizes (and audits) such a request
 * as being about N, so that a role limited to resourceNames [N] lets `kubectl get KIND N -w` and single-object
 * informers list and watch it. '' when there is none, the selector does not parse, or N is no valid path segment.
 */
function selectedName(query: URLSearchParams): string {
  const text = query.get('fieldSelector');
  if (!text) return '';
  let name: string | undefined;
  try {
    name = parseFieldSelector(text).exactMatch('metadata.name');
  } catch {
    return ''; // the list or watch itself answers the 400
  }
  return name && isValidPathSegmentName(name).length === 0 ? name : '';
}

function verbFor(method: string, info: RequestInfo, query: URLSearchParams, watchPrefix: boolean): string {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD': {
      // As kube's RequestInfoFactory: only an unnamed GET is a list or a watch; a named GET with ?watch=true is a get.
      if (watchPrefix) return 'watch';
      if (info.name) return 'get';
      return queryBool(query, 'watch') ? 'watch' : 'list';
    }
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return info.name ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
