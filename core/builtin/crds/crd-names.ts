import type { Crd, CrdCondition, CrdNames } from './crd-types.js';
import { namesWithDefaults } from './crd-types.js';

export interface NamesVerdict {
  accepted: boolean;
  condition: Omit<CrdCondition, 'lastTransitionTime'>;
}

/**
 * Whether a CRD's names are free in its group, judged against the names other CRDs of the group were already
 * accepted under (kube's naming controller: the first to be accepted keeps its names).
 */
export function judgeNames(crd: Crd, others: Crd[]): NamesVerdict {
  const wanted = namesWithDefaults(crd.spec.names);
  const taken = { plural: new Set<string>(), singular: new Set<string>(), short: new Set<string>(), kind: new Set<string>(), listKind: new Set<string>() };
  for (const o of others) {
    if (o.metadata?.name === crd.metadata?.name || o.spec?.group !== crd.spec.group) continue;
    const acc: CrdNames | undefined = o.status?.acceptedNames;
    if (!acc?.plural) continue;
    const n = namesWithDefaults(acc);
    taken.plural.add(n.plural);
    taken.singular.add(n.singular);
    taken.kind.add(n.kind);
    taken.listKind.add(n.listKind);
    for (const s of n.shortNames ?? []) taken.short.add(s);
  }
  const inUse = (name: string) => `"${name}" is already in use`;
  const conflict = (reason: string, message: string): NamesVerdict => ({ accepted: false, condition: { type: 'NamesAccepted', status: 'False', reason, message } });
  if (taken.plural.has(wanted.plural) || taken.singular.has(wanted.plural)) return conflict('PluralConflict', inUse(wanted.plural));
  if (taken.singular.has(wanted.singular) || taken.plural.has(wanted.singular)) return conflict('SingularConflict', inUse(wanted.singular));
  for (const s of wanted.shortNames ?? []) if (taken.short.has(s) || taken.plural.has(s)) return conflict('ShortNamesConflict', inUse(s));
  if (taken.kind.has(wanted.kind) || taken.listKind.has(wanted.kind)) return conflict('KindConflict', inUse(wanted.kind));
  if (taken.listKind.has(wanted.listKind) || taken.kind.has(wanted.listKind)) return conflict('ListKindConflict', inUse(wanted.listKind));
  return { accepted: true, condition: { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } };
}
