// NamesAccepted as kube's naming controller judges it, from the index of the names other CRDs were accepted under.
import test from 'ava';
import { AcceptedNamesIndex } from '../../../../builtin/customresourcedefinitions/accepted-names-index.js';
import { judgeNames } from '../../../../builtin/customresourcedefinitions/crd-names.js';
import type { Crd, CrdNames } from '../../../../builtin/customresourcedefinitions/crd-types.js';

/** CRD `plural.group` requesting `names`, accepted under `accepted` (none: not judged yet). */
function crd(group: string, names: CrdNames, accepted?: CrdNames): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: { group, scope: 'Namespaced', names, versions: [{ name: 'v1', served: true, storage: true }] },
    ...(accepted ? { status: { acceptedNames: accepted } } : {}),
  } as Crd;
}

const widgets: CrdNames = { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList' };
const verdictOf = (index: AcceptedNamesIndex, c: Crd) => judgeNames(c, index.takenByOthers(c.spec.group, c.metadata!.name!));

test('a name another CRD of the group was accepted under conflicts; the same name in another group does not', (t) => {
  const index = new AcceptedNamesIndex();
  index.set(crd('example.com', widgets, widgets));
  const gadgets = crd('example.com', { plural: 'gadgets', singular: 'gadget', shortNames: ['wd'], kind: 'Widget', listKind: 'GadgetList' });
  t.deepEqual(verdictOf(index, gadgets).condition, { type: 'NamesAccepted', status: 'False', reason: 'KindConflict', message: '"Widget" is already in use' });
  t.deepEqual(verdictOf(index, gadgets).acceptedNames, { plural: 'gadgets', singular: 'gadget', kind: '', listKind: 'GadgetList' });
  const elsewhere = crd('other.example.com', widgets);
  t.is(verdictOf(index, elsewhere).condition.reason, 'NoConflicts');
});

test("a CRD's own accepted names are not a conflict with itself", (t) => {
  const index = new AcceptedNamesIndex();
  const own = crd('example.com', widgets, widgets);
  index.set(own);
  t.is(verdictOf(index, own).condition.status, 'True');
});

test('names are free again once their CRD is gone or accepted under other names', (t) => {
  const index = new AcceptedNamesIndex();
  const holder = crd('example.com', widgets, widgets);
  index.set(holder);
  const second = crd('example.com', { plural: 'widgets2', kind: 'Widget2', shortNames: ['wd'] });
  t.is(verdictOf(index, second).condition.reason, 'ShortNamesConflict');
  index.set(crd('example.com', widgets, { ...widgets, shortNames: ['w'] }));
  t.is(verdictOf(index, second).condition.reason, 'NoConflicts');
  index.set(crd('example.com', { plural: 'things', kind: 'Widget2' }, { plural: 'things', kind: 'Widget2' }));
  t.is(verdictOf(index, second).condition.reason, 'KindConflict');
  index.delete('things.example.com');
  t.is(verdictOf(index, second).condition.reason, 'NoConflicts');
});

test('a name two other CRDs hold stays taken when one of them lets it go', (t) => {
  const index = new AcceptedNamesIndex();
  index.set(crd('example.com', { plural: 'as', kind: 'A' }, { plural: 'as', kind: 'A', shortNames: ['x'] }));
  index.set(crd('example.com', { plural: 'bs', kind: 'B' }, { plural: 'bs', kind: 'B', shortNames: ['x'] }));
  index.delete('as.example.com');
  t.is(verdictOf(index, crd('example.com', { plural: 'cs', kind: 'C', shortNames: ['x'] })).condition.reason, 'ShortNamesConflict');
});
