import type { TakenNames } from './accepted-names-index.js';
import type { Crd, CrdCondition, CrdNames } from './crd-types.js';

export interface NamesVerdict {
  /** The names this CRD is served under: each requested name that is free, else the one accepted before. */
  acceptedNames: CrdNames;
  condition: Omit<CrdCondition, 'lastTransitionTime'>;
}

/**
 * Judges a CRD's requested names against the names the other CRDs of its group were accepted under (`taken`), as kube's
 * naming controller does: every name is checked (the last conflict found is reported), each free name is accepted
 * on its own, and a name this CRD already holds stays its own.
 */
export function judgeNames(crd: Crd, taken: TakenNames): NamesVerdict {
  const requested = crd.spec.names;
  const accepted: CrdNames = crd.status?.acceptedNames ?? { plural: '', kind: '' };
  const names: CrdNames = { ...accepted };
  let condition: NamesVerdict['condition'] | undefined;
  const conflict = (reason: string, message: string) => {
    condition = { type: 'NamesAccepted', status: 'False', reason, message };
  };
  const free = (want: string | undefined, have: string | undefined, used: (name: string) => boolean) => !want || want === have || !used(want);

  if (free(requested.plural, accepted.plural, taken.resource)) names.plural = requested.plural;
  else conflict('PluralConflict', inUse(requested.plural));
  if (free(requested.singular, accepted.singular, taken.resource)) names.singular = requested.singular;
  else conflict('SingularConflict', inUse(requested.singular!));
  const held = new Set(accepted.shortNames ?? []);
  const takenShort = (requested.shortNames ?? []).filter((s) => !held.has(s) && taken.resource(s));
  if (takenShort.length === 0) names.shortNames = requested.shortNames;
  else conflict('ShortNamesConflict', takenShort.length === 1 ? inUse(takenShort[0]) : `[${takenShort.map(inUse).join(', ')}]`);
  if (free(requested.kind, accepted.kind, taken.kind)) names.kind = requested.kind;
  else conflict('KindConflict', inUse(requested.kind));
  if (free(requested.listKind, accepted.listKind, taken.kind)) names.listKind = requested.listKind;
  else conflict('ListKindConflict', inUse(requested.listKind!));
  names.categories = requested.categories;

  return {
    acceptedNames: dropEmpty(names),
    condition: condition ?? { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
  };
}

function inUse(name: string): string {
  return `"${name}" is already in use`;
}

/** Omits unset optional names, as kube's JSON does. */
function dropEmpty(names: CrdNames): CrdNames {
  // Key order as kube serializes CustomResourceDefinitionNames.
  return {
    plural: names.plural ?? '',
    ...(names.singular ? { singular: names.singular } : {}),
    ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
    kind: names.kind ?? '',
    ...(names.listKind ? { listKind: names.listKind } : {}),
    ...(names.categories?.length ? { categories: names.categories } : {}),
  };
}
