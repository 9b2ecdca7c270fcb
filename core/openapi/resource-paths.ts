import type { ServedResource } from '../discovery/served-groups.js';
import type { GroupVersionKind, ServedSubresource } from '../discovery/served-subresources.js';
import { servedSubresources } from '../discovery/served-subresources.js';
import { definitionName } from './definition-names.js';
import { kindNames, storageKindName } from './kind-schemas.js';
import { deleteOptionsName, patchName, statusName, watchEventName } from './meta-schemas.js';
import { groupPart, toOperationId } from './operation-id.js';
import type { Parameter } from './query-parameters.js';
import { patchTypesFor } from '../handlers/patch-handler.js';
import {
  commonParameters,
  deleteCollectionParameters,
  deleteParameters,
  listParameters,
  namespaceParameter,
  nameParameter,
  patchParameters,
  writeParameters,
} from './query-parameters.js';

export interface ResponseSpec {
  code: string;
  description: string;
  /** Definition name of the response body. */
  schema?: string;
}

/** One operation of a path, independent of the OpenAPI version it is rendered in. */
export interface Operation {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  operationId: string;
  tag: string;
  description: string;
  /** x-kubernetes-action */
  action: string;
  gvk: GroupVersionKind;
  parameters: Parameter[];
  body?: { schema: string; required: boolean; contentTypes: string[] };
  responses: ResponseSpec[];
  produces: string[];
}

export interface PathItem {
  path: string;
  /** Parameters every operation of the path takes. */
  parameters: Parameter[];
  operations: Operation[];
}

const produces = ['application/json', 'application/yaml'];
const producesStream = [...produces, 'application/json;stream=watch'];

type OperationInput = Omit<Operation, 'tag' | 'operationId' | 'gvk' | 'produces' | 'responses'> & {
  /** The operation name, split where kube inserts the group-version: `list` + `NamespacedWidget`. */
  id: [string, string];
  responses: ResponseSpec[];
  gvk?: GroupVersionKind;
  produces?: string[];
};

/**
 * The paths kube-apiserver publishes for a resource at a version: collection, item, subresources, the deprecated
 * watch paths and, for namespaced resources, the all-namespaces list, with kube's operation IDs and actions.
 */
export function resourcePaths(served: ServedResource): PathItem[] {
  const { type, version } = served;
  const v = version.name;
  const { kind, plural } = type.names;
  const names = kindNames(served);
  const namespaced = type.scope === 'Namespaced';
  const scope = namespaced ? 'Namespaced' : '';
  const prefix = type.group ? `/apis/${type.group}/${v}` : `/api/${v}`;
  const nsPath = namespaced ? '/namespaces/{namespace}' : '';
  const gvId = toOperationId(groupPart(type.group), true) + toOperationId(v, true);
  const tag = `${toOperationId(groupPart(type.group), false)}_${toOperationId(v, false)}`;
  const mainGvk = { group: type.group, version: v, kind };
  const collectionParams = namespaced ? [namespaceParameter] : [];
  const itemParams = [nameParameter(kind), ...collectionParams];
  const has = (verb: string) => type.verbs.includes(verb);
  const op = (pathParams: Parameter[], input: OperationInput): Operation => {
    const { id, gvk, parameters, responses, ...rest } = input;
    return {
      ...rest,
      operationId: id[0] + gvId + id[1],
      tag,
      gvk: gvk ?? mainGvk,
      parameters: [...pathParams, ...commonParameters, ...parameters],
      responses: [...responses, { code: '401', description: 'Unauthorized' }],
      produces: input.produces ?? produces,
    };
  };
  const ok = (schema: string): ResponseSpec => ({ code: '200', description: 'OK', schema });
  const created = (schema: string): ResponseSpec => ({ code: '201', description: 'Created', schema });
  const accepted = (schema: string): ResponseSpec => ({ code: '202', description: 'Accepted', schema });
  const deleteBody = { schema: deleteOptionsName, required: false, contentTypes: ['*/*'] };
  const list = (pathParams: Parameter[], name: string): Operation =>
    op(pathParams, { method: 'get', id: ['list', name], action: 'list', description: `list or watch objects of kind ${kind}`, parameters: listParameters, responses: [ok(names.list)], produces: producesStream });
  const watch = (pathParams: Parameter[], name: string, action: 'watch' | 'watchlist'): Operation =>
    op(pathParams, {
      method: 'get',
      id: ['watch', name],
      action,
      description:
        action === 'watchlist'
          ? `watch individual changes to a list of ${kind}. deprecated: use the 'watch' parameter with a list operation instead.`
          : `watch changes to an object of kind ${kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
      parameters: listParameters,
      responses: [ok(watchEventName)],
      produces: producesStream,
    });

  /** get, update (PUT) and patch of the object (suffix '') or of a subresource (suffix 'Status', 'Scale', …). */
  const objectOperations = (pathParams: Parameter[], suffix: string, what: string, gvk: GroupVersionKind, schema: string, verbs: string[]): Operation[] => {
    const id = `${scope}${kind}${suffix}`;
    const body = { schema, required: true, contentTypes: ['*/*'] };
    const ops: Operation[] = [];
    if (verbs.includes('get')) ops.push(op(pathParams, { method: 'get', id: ['read', id], action: 'get', description: `read ${what}`, gvk, parameters: [], responses: [ok(schema)] }));
    if (verbs.includes('update')) {
      ops.push(op(pathParams, { method: 'put', id: ['replace', id], action: 'put', description: `replace ${what}`, gvk, parameters: writeParameters, body, responses: [ok(schema), created(schema)] }));
    }
    if (verbs.includes('patch')) {
      const patchBody = { schema: patchName, required: true, contentTypes: patchTypesFor(type) };
      ops.push(op(pathParams, { method: 'patch', id: ['patch', id], action: 'patch', description: `partially update ${what}`, gvk, parameters: patchParameters, body: patchBody, responses: [ok(schema), created(schema)] }));
    }
    return ops;
  };
  /** The definition a subresource reads and writes: its storage's own kind, Scale, or the resource's kind. */
  const subresourceSchema = (sub: ServedSubresource): string => {
    if (sub.storage) return sub.storage.kind ? storageKindName(sub.storage.kind) : names.kind;
    return sub.name === 'scale' ? definitionName(sub.kind.group, sub.kind.version, sub.kind.kind, false) : names.kind;
  };

  const paths: PathItem[] = [];
  const add = (path: string, operations: Operation[]) => operations.length && paths.push(hoistCommon(path, operations));
  const collection: Operation[] = [];
  if (has('list')) collection.push(list(collectionParams, `${scope}${kind}`));
  if (has('create')) {
    const body = { schema: names.kind, required: true, contentTypes: ['*/*'] };
    collection.push(op(collectionParams, { method: 'post', id: ['create', `${scope}${kind}`], action: 'post', description: `create ${withArticle(kind)}`, parameters: writeParameters, body, responses: [ok(names.kind), created(names.kind), accepted(names.kind)] }));
  }
  if (has('deletecollection')) {
    collection.push(op(collectionParams, { method: 'delete', id: ['delete', `Collection${scope}${kind}`], action: 'deletecollection', description: `delete collection of ${kind}`, parameters: deleteCollectionParameters, body: deleteBody, responses: [ok(statusName)] }));
  }
  add(`${prefix}${nsPath}/${plural}`, collection);

  const item = objectOperations(itemParams, '', `the specified ${kind}`, mainGvk, names.kind, type.verbs);
  if (has('delete')) {
    item.push(op(itemParams, { method: 'delete', id: ['delete', `${scope}${kind}`], action: 'delete', description: `delete ${withArticle(kind)}`, parameters: deleteParameters, body: deleteBody, responses: [ok(statusName), accepted(statusName)] }));
  }
  add(`${prefix}${nsPath}/${plural}/{name}`, item);

  for (const sub of servedSubresources(type, version)) {
    const schema = subresourceSchema(sub);
    const idSuffix = sub.name[0]!.toUpperCase() + sub.name.slice(1); // replaceCoreV1NamespaceFinalize, readNamespacedWidgetScale
    // kube names the path's object after the subresource's kind ("name of the Scale"), the operations after the resource's.
    const subParams = [nameParameter(sub.kind.kind), ...collectionParams];
    const ops = objectOperations(subParams, idSuffix, `${sub.name} of the specified ${kind}`, sub.kind, schema, sub.verbs);
    if (sub.verbs.includes('create')) {
      // A POST subresource, like pods/eviction: createCoreV1NamespacedPodEviction.
      const body = { schema, required: true, contentTypes: ['*/*'] };
      ops.push(op(subParams, { method: 'post', id: ['create', `${scope}${kind}${idSuffix}`], action: 'post', description: `create ${sub.name} of ${withArticle(kind)}`, gvk: sub.kind, parameters: writeParameters, body, responses: [ok(schema), created(schema), accepted(schema)] }));
    }
    add(`${prefix}${nsPath}/${plural}/{name}/${sub.name}`, ops);
  }
  if (has('watch')) {
    add(`${prefix}/watch${nsPath}/${plural}`, [watch(collectionParams, `${scope}${kind}List`, 'watchlist')]);
    add(`${prefix}/watch${nsPath}/${plural}/{name}`, [watch(itemParams, `${scope}${kind}`, 'watch')]);
  }
  if (namespaced && has('list')) add(`${prefix}/${plural}`, [list([], `${kind}ForAllNamespaces`)]);
  if (namespaced && has('watch')) add(`${prefix}/watch/${plural}`, [watch([], `${kind}ListForAllNamespaces`, 'watchlist')]);
  return paths;
}

/** The noun with kube's article (GetArticleForNoun): `a Widget`, `an Ingress`; none for a plural-looking `Endpoints`. */
function withArticle(noun: string): string {
  if (noun.endsWith('s') && !noun.endsWith('ss')) return noun;
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** Moves the parameters every operation of a path takes to the path, as kube's OpenAPI builder does; sorts by name. */
function hoistCommon(path: string, operations: Operation[]): PathItem {
  const byName = (a: Parameter, b: Parameter) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const common = operations[0]!.parameters.filter((p) => operations.every((o) => o.parameters.some((q) => q.name === p.name)));
  const isCommon = (p: Parameter) => common.some((c) => c.name === p.name);
  return {
    path,
    parameters: [...common].sort(byName),
    operations: operations.map((o) => ({ ...o, parameters: o.parameters.filter((p) => !isCommon(p)).sort(byName) })),
  };
}
