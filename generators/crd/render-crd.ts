/** A CRD as YAML the way controller-gen writes it: a `---` document, keys sorted, lists not indented under their key. */
import YAML from 'yaml';
import type { Crd } from './crd-assembly.js';

export function renderCrd(crd: Crd): string {
  return `---\n${YAML.stringify(crd, { sortMapEntries: true, indentSeq: false, lineWidth: 0 })}`;
}
