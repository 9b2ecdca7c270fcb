/** TypeScript text of a kind's list type, resource description, typed client and informer factories. */
import type { Crd } from './read-crds.js';
import { docComment } from './render-interfaces.js';
import { camelCase } from './ts-names.js';

export interface ClientShape {
  crd: Crd;
  version: string;
  /** The CRD has the status subresource in this version. */
  status: boolean;
}

/** The import of what a kind's file uses from kapi. */
export function clientImport(shape: ClientShape, from: string): string {
  const client = shape.status ? 'TypedStatusClient' : 'TypedClient';
  const names = [client, 'TypedInformer', 'type ApiClient', 'type InformerOptions', 'type ListMeta', 'type ObjectMeta', 'type ResourceDescription'];
  return `import { ${names.join(', ')} } from ${JSON.stringify(from)};\n`;
}

export function renderClient({ crd, version, status }: ClientShape): string {
  const { group, scope, names } = crd.spec;
  const { kind, plural } = names;
  const listKind = names.listKind ?? `${kind}List`;
  const stem = camelCase(kind);
  const namespaced = scope === 'Namespaced';
  const clientClass = status ? 'TypedStatusClient' : 'TypedClient';
  const q = (s: string) => JSON.stringify(s);
  const resource = `{ group: ${q(group)}, version: ${q(version)}, plural: ${q(plural)}, kind: ${q(kind)}, namespaced: ${namespaced} }`;
  const params = namespaced ? 'api: ApiClient, namespace?: string' : 'api: ApiClient';
  const args = namespaced ? 'api, namespace' : 'api';
  const scopeDoc = namespaced ? ' in `namespace` (all namespaces when absent: for list, watch and deleteCollection)' : '';
  const listDoc = docComment(`A list of ${kind} objects.`, '');
  const clientDoc = docComment(`A typed client of ${plural}.${group}/${version}${scopeDoc}.`, '');
  const informerScope = namespaced ? ' in `namespace` (all namespaces when absent)' : '';
  const informerDoc = docComment(`An informer of ${plural}.${group}/${version}${informerScope}: a local cache kept current by a watch.`, '');
  return `${listDoc}export interface ${listKind} {
  apiVersion: ${q(`${group}/${version}`)};
  kind: ${q(listKind)};
  metadata: ListMeta;
  items: ${kind}[];
}

export const ${stem}Resource: ResourceDescription = ${resource};

${clientDoc}export function ${stem}Client(${params}): ${clientClass}<${kind}, ${listKind}> {
  return new ${clientClass}(api, ${stem}Resource${namespaced ? ', namespace' : ''});
}

${informerDoc}export function ${stem}Informer(${params}, options?: InformerOptions): TypedInformer<${kind}> {
  return new TypedInformer(${stem}Client(${args}), options);
}
`;
}
