/** The CustomResourceDefinitions of a YAML file, checked for the fields `kapi gen types` reads. */
import YAML from 'yaml';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { GenTypesError } from './gen-types-error.js';

export interface CrdVersion {
  name: string;
  served: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object };
}

export interface Crd {
  metadata: { name: string };
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: { kind: string; plural: string; listKind?: string };
    versions: CrdVersion[];
  };
}

/** A CRD and where it came from: `file` as given, `index` its position among the file's YAML documents. */
export interface CrdSource {
  file: string;
  index: number;
  crd: Crd;
}

/** The file's CRDs (other kinds of documents are skipped); throws GenTypesError when it holds none or one is malformed. */
export function readCrds(file: string, text: string): CrdSource[] {
  const docs = YAML.parseAllDocuments(text);
  const sources: CrdSource[] = [];
  for (const [index, doc] of docs.entries()) {
    if (doc.errors.length) throw new GenTypesError(`${file}: not YAML: ${doc.errors[0].message.split('\n')[0]}`);
    const value: unknown = doc.toJS();
    if (!isObject(value) || value.kind !== 'CustomResourceDefinition') continue;
    sources.push({ file, index, crd: checkCrd(`${file}: document ${index + 1}`, value) });
  }
  if (!sources.length) throw new GenTypesError(`${file}: holds no CustomResourceDefinition`);
  return sources;
}

function checkCrd(where: string, value: Record<string, unknown>): Crd {
  if (value.apiVersion !== 'apiextensions.k8s.io/v1') throw new GenTypesError(`${where}: apiVersion must be apiextensions.k8s.io/v1, not ${JSON.stringify(value.apiVersion)}`);
  const spec = value.spec;
  const names = isObject(spec) ? spec.names : undefined;
  const required: [string, unknown][] = [
    ['metadata.name', isObject(value.metadata) ? value.metadata.name : undefined],
    ['spec.group', isObject(spec) ? spec.group : undefined],
    ['spec.names.kind', isObject(names) ? names.kind : undefined],
    ['spec.names.plural', isObject(names) ? names.plural : undefined],
  ];
  for (const [path, v] of required) if (typeof v !== 'string' || v === '') throw new GenTypesError(`${where}: ${path} must be a non-empty string`);
  const { scope, versions } = spec as Record<string, unknown>;
  if (scope !== 'Namespaced' && scope !== 'Cluster') throw new GenTypesError(`${where}: spec.scope must be Namespaced or Cluster, not ${JSON.stringify(scope)}`);
  if (!Array.isArray(versions) || !versions.length) throw new GenTypesError(`${where}: spec.versions must be a non-empty list`);
  for (const [i, v] of versions.entries()) {
    if (!isObject(v) || typeof v.name !== 'string' || typeof v.served !== 'boolean') throw new GenTypesError(`${where}: spec.versions[${i}] needs a name and served`);
  }
  return value as unknown as Crd;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
