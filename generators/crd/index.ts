/**
 * `kapi gen crd`: CustomResourceDefinitions from TypeScript types annotated with controller-gen's markers. The
 * output is checked against kube's CRD schema rules and CEL compilation, and rendered byte for byte the same for the
 * same input.
 */
import { assembleCrd, type Crd } from './crd-assembly.js';
import { checkCrd } from './crd-checks.js';
import { GenCrdError } from './gen-crd-error.js';
import { compileSources } from './compile-sources.js';
import { readKindVersions, type KindVersion } from './kind-versions.js';
import { renderCrd } from './render-crd.js';
import { SchemaBuilder } from './schema-builder.js';

export { GenCrdError } from './gen-crd-error.js';
export { parseMarker, type Marker } from './markers.js';
export type { Crd, CrdVersion } from './crd-assembly.js';

export interface GeneratedCrd {
  /** controller-gen's file name: `<group>_<plural>.yaml`. */
  fileName: string;
  crd: Crd;
  yaml: string;
}

/** Generates one CRD per group and kind found in `files`. Throws GenCrdError (file:line: message) on bad input. */
export function generateCrds(files: string[]): GeneratedCrd[] {
  const { program, sources } = compileSources(files);
  const builder = new SchemaBuilder(program.getTypeChecker());
  const kinds = new Map<string, KindVersion[]>();
  for (const sf of sources) {
    for (const kv of readKindVersions(sf, builder)) {
      const key = `${kv.group}/${kv.kind}`;
      kinds.set(key, [...(kinds.get(key) ?? []), kv]);
    }
  }
  if (kinds.size === 0) throw new GenCrdError([`${files.join(', ')}: no root type (an interface marked // +kubebuilder:object:root=true)`]);
  const out: GeneratedCrd[] = [];
  for (const versions of kinds.values()) {
    const crd = assembleCrd(versions);
    checkCrd(crd, builder.locations);
    out.push({ fileName: `${crd.spec.group}_${crd.spec.names.plural}.yaml`, crd, yaml: renderCrd(crd) });
  }
  return out.sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
}
