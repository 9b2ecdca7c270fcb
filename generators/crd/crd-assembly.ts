/**
 * The versions of one kind → one CustomResourceDefinition (apiextensions.k8s.io/v1): names and scope from
 * `+kubebuilder:resource`, per version its schema, served/storage/deprecated flags, subresources, printer columns and
 * selectable fields. Versions are listed by name, as controller-gen lists them; exactly one is the storage version.
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { formatLocation, GenCrdError } from './gen-crd-error.js';
import type { KindVersion } from './kind-versions.js';
import type { Marker } from './markers.js';

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema: { openAPIV3Schema: JSONSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string } };
  additionalPrinterColumns?: { name: string; type: string; jsonPath: string; description?: string; format?: string; priority?: number }[];
  selectableFields?: { jsonPath: string }[];
}

export interface Crd {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string };
  spec: {
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames?: string[]; categories?: string[] };
    scope: 'Namespaced' | 'Cluster';
    versions: CrdVersion[];
  };
}

const columnTypes = ['integer', 'number', 'string', 'boolean', 'date'];

/** The lower-case plural of a kind, as controller-gen's default `path` (Widget → widgets, Policy → policies). */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

const find = (kv: KindVersion, name: string) => kv.markers.filter((m) => m.definition.name === `kubebuilder:${name}`);

/** The one `+kubebuilder:resource` of the kind: versions may repeat it, but not differently. */
function resourceMarker(versions: KindVersion[]): Marker | undefined {
  const all = versions.flatMap((kv) => find(kv, 'resource'));
  const differing = all.find((m) => JSON.stringify(m.args) !== JSON.stringify(all[0].args));
  if (differing) throw GenCrdError.at(differing.loc, `+kubebuilder:resource differs from the one at ${formatLocation(all[0].loc)}; the versions of a kind share one`);
  return all[0];
}

function storageVersion(versions: KindVersion[]): string {
  if (versions.length === 1) return versions[0].version;
  const marked = versions.filter((kv) => find(kv, 'storageversion').length);
  if (marked.length === 1) return marked[0].version;
  const kind = versions[0].kind;
  if (marked.length === 0) {
    throw GenCrdError.at(versions[0].loc, `kind ${kind} has versions ${versions.map((v) => v.version).join(', ')} and none is marked +kubebuilder:storageversion; exactly one must be`);
  }
  throw new GenCrdError(marked.map((kv) => `${formatLocation(find(kv, 'storageversion')[0].loc)}: kind ${kind}: versions ${marked.map((v) => v.version).join(', ')} are all marked +kubebuilder:storageversion; exactly one must be`));
}

function crdVersion(kv: KindVersion, storage: string): CrdVersion {
  const v: CrdVersion = { name: kv.version, served: find(kv, 'unservedversion').length === 0, storage: kv.version === storage, schema: { openAPIV3Schema: kv.schema } };
  const deprecated = find(kv, 'deprecatedversion')[0];
  if (deprecated) {
    v.deprecated = true;
    if (deprecated.args.warning !== undefined) v.deprecationWarning = deprecated.args.warning as string;
  }
  const status = find(kv, 'subresource:status').length > 0;
  const scale = find(kv, 'subresource:scale')[0];
  if (status || scale) {
    v.subresources = {};
    if (status) v.subresources.status = {};
    if (scale) {
      v.subresources.scale = { specReplicasPath: scale.args.specpath as string, statusReplicasPath: scale.args.statuspath as string };
      if (scale.args.selectorpath !== undefined) v.subresources.scale.labelSelectorPath = scale.args.selectorpath as string;
    }
  }
  const columns = find(kv, 'printcolumn').map((m) => {
    const a = m.args;
    if (!columnTypes.includes(a.type as string)) throw GenCrdError.at(m.loc, `printer column type must be one of ${columnTypes.join(', ')}, not ${JSON.stringify(a.type)}`);
    const column: NonNullable<CrdVersion['additionalPrinterColumns']>[number] = { name: a.name as string, type: a.type as string, jsonPath: a.JSONPath as string };
    if (a.description !== undefined) column.description = a.description as string;
    if (a.format !== undefined) column.format = a.format as string;
    if (a.priority !== undefined) column.priority = a.priority as number;
    return column;
  });
  if (columns.length) v.additionalPrinterColumns = columns;
  const selectable = find(kv, 'selectablefield').map((m) => ({ jsonPath: m.args.JSONPath as string }));
  if (selectable.length) v.selectableFields = selectable;
  return v;
}

/** One CRD from all the versions of one group and kind. */
export function assembleCrd(versions: KindVersion[]): Crd {
  const sorted = [...versions].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].version === sorted[i - 1].version) {
      throw GenCrdError.at(sorted[i].loc, `kind ${sorted[i].kind} version ${sorted[i].version} is already defined at ${formatLocation(sorted[i - 1].loc)}`);
    }
  }
  const { group, kind } = sorted[0];
  const resource = resourceMarker(sorted)?.args ?? {};
  const scope = (resource.scope as string | undefined) ?? 'Namespaced';
  if (scope !== 'Namespaced' && scope !== 'Cluster') throw GenCrdError.at(resourceMarker(sorted)!.loc, `scope must be Namespaced or Cluster, not ${JSON.stringify(scope)}`);
  const plural = (resource.path as string | undefined) ?? pluralOf(kind);
  const names: Crd['spec']['names'] = { kind, listKind: `${kind}List`, plural, singular: (resource.singular as string | undefined) ?? kind.toLowerCase() };
  if (resource.shortName !== undefined) names.shortNames = resource.shortName as string[];
  if (resource.categories !== undefined) names.categories = resource.categories as string[];
  const storage = storageVersion(sorted);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: { group, names, scope, versions: sorted.map((kv) => crdVersion(kv, storage)) },
  };
}
