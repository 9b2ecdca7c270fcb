/**
 * structured-merge-diff semantics, table-driven (cases after SMD's merge tests): sequences of applies and updates by
 * several managers, and the object and field sets they leave.
 */
import test from 'ava';
import YAML from 'yaml';
import type { MergeModel } from '../../../../schemas/merge-strategy.js';
import { conflictList } from '../../../../core/ssa/conflicts.js';
import { FieldSet } from '../../../../schemas/structured-merge/field-set.js';
import { mergeObjects } from '../../../../schemas/structured-merge/merge-values.js';
import { pathString } from '../../../../schemas/structured-merge/path-element.js';
import { toFieldSet } from '../../../../schemas/structured-merge/to-field-set.js';
import { applyConfig, Conflicts, updateObject, type ManagerSets } from '../../../../core/ssa/updater.js';

const scalar: MergeModel = { kind: 'scalar' };
const struct = (fields: Record<string, MergeModel>, atomic = false): MergeModel => ({ kind: 'struct', atomic, fields });
const listMap = (keys: string[], items: MergeModel): MergeModel => ({ kind: 'list', listType: 'map', keys, items });
const set = (items: MergeModel = scalar): MergeModel => ({ kind: 'list', listType: 'set', keys: [], items });
const atomicList = (items: MergeModel = scalar): MergeModel => ({ kind: 'list', listType: 'atomic', keys: [], items });
const recursiveMap: MergeModel = (() => {
  const m = { kind: 'map', atomic: false } as { kind: 'map'; atomic: boolean; values: MergeModel };
  m.values = m;
  return m;
})();

const associativeList = struct({ list: listMap(['name'], struct({ name: scalar, value: scalar })) });
const nested = struct({ listOfLists: listMap(['name'], struct({ name: scalar, value: set() })), mapOfMapsRecursive: recursiveMap });
const structModel = (atomic: boolean) => struct({ struct: struct({ name: scalar, numeric: scalar, string: scalar, complex: struct({ name: scalar }) }, atomic) });

type Op =
  | { apply: string; manager: string; force?: boolean; conflicts?: string[] }
  | { update: string; manager: string }
  | { schema: MergeModel };

interface Case {
  title: string;
  model: MergeModel;
  ops: Op[];
  object: string;
  managed: Record<string, string[]>;
}

function run(c: Case) {
  let model = c.model;
  let live: Record<string, unknown> = {};
  let managers: ManagerSets = new Map();
  const problems: string[] = [];
  c.ops.forEach((op, i) => {
    if ('schema' in op) return void (model = op.schema);
    const ctx = { model, apiVersion: 'v1', ignored: FieldSet.EMPTY };
    if ('update' in op) {
      const updated = YAML.parse(op.update) ?? {};
      managers = updateObject(live, updated, ctx, managers, op.manager);
      live = updated;
      return;
    }
    const config = YAML.parse(op.apply) ?? {};
    try {
      const r = applyConfig(live, config, toFieldSet(config, model, true), ctx, managers, op.manager, op.force ?? false);
      if (op.conflicts) problems.push(`op ${i}: expected conflicts ${op.conflicts}`);
      live = r.object;
      managers = r.managers;
    } catch (e) {
      if (!(e instanceof Conflicts)) throw e;
      const got = conflictList(e.byManager).map((x) => `${x.manager} ${pathString(x.path)}`);
      if (JSON.stringify(got) !== JSON.stringify(op.conflicts ?? [])) problems.push(`op ${i}: conflicts ${JSON.stringify(got)}`);
    }
  });
  const managed = Object.fromEntries([...managers].map(([m, vs]) => [m, vs.set.paths().map(pathString).sort()]));
  return { object: live, managed, problems };
}

const cases: Case[] = [
  {
    title: 'an item dropped by its only applier is removed; items of another applier stay',
    model: associativeList,
    ops: [
      { manager: 'apply-one', apply: 'list: [{name: a}, {name: b}]' },
      { manager: 'apply-two', apply: 'list: [{name: c}]' },
      { manager: 'apply-one', apply: 'list: [{name: a}]' },
    ],
    object: 'list: [{name: a}, {name: c}]',
    managed: { 'apply-one': ['.list[name="a"]', '.list[name="a"].name'], 'apply-two': ['.list[name="c"]', '.list[name="c"].name'] },
  },
  {
    title: 'two appliers of the same value share it without conflict',
    model: associativeList,
    ops: [
      { manager: 'apply-one', apply: 'list: [{name: a, value: 0}]' },
      { manager: 'apply-two', apply: 'list: [{name: a, value: 0}]' },
    ],
    object: 'list: [{name: a, value: 0}]',
    managed: {
      'apply-one': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
      'apply-two': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
    },
  },
  {
    title: 'changing a value another applier owns conflicts (and changes nothing)',
    model: associativeList,
    ops: [
      { manager: 'apply-one', apply: 'list: [{name: a, value: 0}]' },
      { manager: 'apply-two', apply: 'list: [{name: a, value: 1}]', conflicts: ['apply-one .list[name="a"].value'] },
    ],
    object: 'list: [{name: a, value: 0}]',
    managed: { 'apply-one': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'] },
  },
  {
    title: 'a forced apply takes the field over',
    model: associativeList,
    ops: [
      { manager: 'apply-one', apply: 'list: [{name: a, value: 0}]' },
      { manager: 'apply-two', apply: 'list: [{name: a, value: 1}]', force: true },
    ],
    object: 'list: [{name: a, value: 1}]',
    managed: {
      'apply-one': ['.list[name="a"]', '.list[name="a"].name'],
      'apply-two': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
    },
  },
  {
    title: 'dropping items keeps those another applier shares',
    model: associativeList,
    ops: [
      { manager: 'apply-one', apply: 'list: [{name: a}, {name: b}, {name: c}]' },
      { manager: 'apply-two', apply: 'list: [{name: c}, {name: d}]' },
      { manager: 'apply-one', apply: 'list: [{name: a}]' },
    ],
    object: 'list: [{name: a}, {name: c}, {name: d}]',
    managed: {
      'apply-one': ['.list[name="a"]', '.list[name="a"].name'],
      'apply-two': ['.list[name="c"]', '.list[name="c"].name', '.list[name="d"]', '.list[name="d"].name'],
    },
  },
  {
    title: 'nested: an item kept for another applier loses only the sub-items the leaving applier owned',
    model: nested,
    ops: [
      { manager: 'apply-one', apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]' },
      { manager: 'apply-two', apply: 'listOfLists: [{name: b, value: [d]}]' },
      { manager: 'apply-one', apply: 'listOfLists: [{name: a}]' },
    ],
    object: 'listOfLists: [{name: a}, {name: b, value: [d]}]',
    managed: {
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': ['.listOfLists[name="b"]', '.listOfLists[name="b"].name', '.listOfLists[name="b"].value[="d"]'],
    },
  },
  {
    title: 'nested: an updater keeps what it added (dangling sub-item)',
    model: nested,
    ops: [
      { manager: 'apply-one', apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]' },
      { manager: 'apply-two', apply: 'listOfLists: [{name: b, value: [d]}]' },
      { manager: 'controller', update: 'listOfLists: [{name: a}, {name: b, value: [c, d, e]}]' },
      { manager: 'apply-one', apply: 'listOfLists: [{name: a}]' },
    ],
    object: 'listOfLists: [{name: a}, {name: b, value: [d, e]}]',
    managed: {
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': ['.listOfLists[name="b"]', '.listOfLists[name="b"].name', '.listOfLists[name="b"].value[="d"]'],
      controller: ['.listOfLists[name="b"].value[="e"]'],
    },
  },
  {
    title: 'nested: an item nobody else applies is removed even if an updater changed something inside it',
    model: nested,
    ops: [
      { manager: 'apply-one', apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]' },
      { manager: 'apply-two', apply: 'listOfLists: [{name: a, value: [b]}]' },
      { manager: 'controller', update: 'listOfLists: [{name: a, value: [b]}, {name: b, value: [c, d]}]' },
      { manager: 'apply-one', apply: 'listOfLists: [{name: a}]' },
    ],
    object: 'listOfLists: [{name: a, value: [b]}]',
    managed: {
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name', '.listOfLists[name="a"].value[="b"]'],
    },
  },
  {
    title: 'recursive maps: null and keys are owned; what only the leaving applier owned goes',
    model: nested,
    ops: [
      { manager: 'apply-one', apply: 'mapOfMapsRecursive: {a: {b: null}, c: {d: null}}' },
      { manager: 'apply-two', apply: 'mapOfMapsRecursive: {a: null, c: {d: null}}' },
      { manager: 'controller-one', update: 'mapOfMapsRecursive: {a: {b: {c: null}}, c: {d: {e: null}}}' },
      { manager: 'controller-two', update: 'mapOfMapsRecursive: {a: {b: {c: {d: null}}}, c: {d: {e: {f: null}}}}' },
      { manager: 'controller-one', update: 'mapOfMapsRecursive: {a: {b: {c: {d: {e: null}}}}, c: {d: {e: {f: {g: null}}}}}' },
      { manager: 'apply-one', apply: 'mapOfMapsRecursive: null' },
    ],
    object: 'mapOfMapsRecursive: {a: null, c: {d: {e: {f: {g: null}}}}}',
    managed: {
      'apply-one': ['.mapOfMapsRecursive'],
      'apply-two': ['.mapOfMapsRecursive.a', '.mapOfMapsRecursive.c', '.mapOfMapsRecursive.c.d'],
      'controller-one': ['.mapOfMapsRecursive.c.d.e', '.mapOfMapsRecursive.c.d.e.f.g'],
      'controller-two': ['.mapOfMapsRecursive.c.d.e.f'],
    },
  },
  {
    title: 'deduced (schemaless) objects merge maps key by key',
    model: { kind: 'deduced' },
    ops: [
      { manager: 'apply-one', apply: 'a: {b: null}\nc: {d: null}' },
      { manager: 'apply-two', apply: 'a: null\nc: {d: null}' },
      { manager: 'controller-one', update: 'a: {b: {c: null}}\nc: {d: {e: null}}' },
      { manager: 'controller-two', update: 'a: {b: {c: {d: null}}}\nc: {d: {e: {f: null}}}' },
      { manager: 'controller-one', update: 'a: {b: {c: {d: {e: null}}}}\nc: {d: {e: {f: {g: null}}}}' },
      { manager: 'apply-one', apply: '' },
    ],
    object: 'a: null\nc: {d: {e: {f: {g: null}}}}',
    managed: {
      'apply-two': ['.a', '.c', '.c.d'],
      'controller-one': ['.c.d.e', '.c.d.e.f.g'],
      'controller-two': ['.c.d.e.f'],
    },
  },
  {
    title: 'a scalar its only applier stops applying is removed',
    model: structModel(false),
    ops: [
      { manager: 'apply-one', apply: 'struct: {name: a, string: a}' },
      { manager: 'apply-one', apply: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a}',
    managed: { 'apply-one': ['.struct.name'] },
  },
  {
    title: 'a scalar another applier shares is kept',
    model: structModel(false),
    ops: [
      { manager: 'apply-one', apply: 'struct: {name: a, string: a}' },
      { manager: 'apply-two', apply: 'struct: {string: a}' },
      { manager: 'apply-one', apply: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a, string: a}',
    managed: { 'apply-one': ['.struct.name'], 'apply-two': ['.struct.string'] },
  },
  {
    title: 'a scalar an updater set is kept when the applier that shared it stops applying it',
    model: structModel(false),
    ops: [
      { manager: 'updater', update: 'struct: {name: a, string: a}' },
      { manager: 'applier', apply: 'struct: {name: a, string: a}' },
      { manager: 'applier', apply: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a, string: a}',
    managed: { updater: ['.struct', '.struct.name', '.struct.string'], applier: ['.struct.name'] },
  },
  {
    title: 'an update takes a changed field from the applier, without conflict',
    model: structModel(false),
    ops: [
      { manager: 'applier', apply: 'struct: {name: a, string: a}' },
      { manager: 'updater', update: 'struct: {name: a, string: b}' },
    ],
    object: 'struct: {name: a, string: b}',
    managed: { updater: ['.struct.string'], applier: ['.struct.name'] },
  },
  {
    title: 'after an update changed its field, the applier conflicts with the updater',
    model: structModel(false),
    ops: [
      { manager: 'applier', apply: 'struct: {name: a, string: a}' },
      { manager: 'updater', update: 'struct: {name: a, string: b}' },
      { manager: 'applier', apply: 'struct: {name: a, string: a}', conflicts: ['updater .struct.string'] },
    ],
    object: 'struct: {name: a, string: b}',
    managed: { updater: ['.struct.string'], applier: ['.struct.name'] },
  },
  {
    title: 'a struct its only applier stops applying is removed with its fields',
    model: structModel(false),
    ops: [
      { manager: 'apply-one', apply: 'struct: {name: a, complex: {name: b}}' },
      { manager: 'apply-one', apply: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a}',
    managed: { 'apply-one': ['.struct.name'] },
  },
  {
    title: 'a struct shared with another applier is kept',
    model: structModel(false),
    ops: [
      { manager: 'apply-one', apply: 'struct: {name: a, complex: {name: b}}' },
      { manager: 'apply-two', apply: 'struct: {complex: {name: b}}' },
      { manager: 'apply-one', apply: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a, complex: {name: b}}',
    managed: { 'apply-one': ['.struct.name'], 'apply-two': ['.struct.complex.name'] },
  },
  {
    title: 'sets: items merge by value; each applier owns its items',
    model: struct({ list: set() }),
    ops: [
      { manager: 'default', apply: 'list: [a, c]' },
      { manager: 'controller', update: 'list: [a, b, c, d]' },
      { manager: 'default', apply: 'list: [a, aprime, c, cprime]' },
    ],
    object: 'list: [a, b, aprime, c, d, cprime]',
    managed: { default: ['.list[="a"]', '.list[="aprime"]', '.list[="c"]', '.list[="cprime"]'], controller: ['.list[="b"]', '.list[="d"]'] },
  },
  {
    title: 'sets: an applier re-applying an updater-added item shares it',
    model: struct({ list: set() }),
    ops: [
      { manager: 'default', apply: 'list: [a, c]' },
      { manager: 'controller', update: 'list: [a, b, c, d]' },
      { manager: 'default', apply: 'list: [a, b, c]' },
    ],
    object: 'list: [a, b, c, d]',
    managed: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]'], controller: ['.list[="b"]', '.list[="d"]'] },
  },
  {
    title: 'sets: a re-apply in another order reorders',
    model: struct({ list: set() }),
    ops: [
      { manager: 'default', apply: 'list: [a, b, c, d]' },
      { manager: 'default', apply: 'list: [a, d, c, b]' },
    ],
    object: 'list: [a, d, c, b]',
    managed: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]', '.list[="d"]'] },
  },
  {
    title: 'map lists with several keys',
    model: struct({ ports: listMap(['port', 'protocol'], struct({ port: scalar, protocol: scalar, name: scalar })) }),
    ops: [
      { manager: 'a', apply: 'ports: [{port: 80, protocol: TCP, name: http}, {port: 80, protocol: UDP}]' },
      { manager: 'b', apply: 'ports: [{port: 443, protocol: TCP, name: https}]' },
      { manager: 'a', apply: 'ports: [{port: 80, protocol: TCP, name: web}]' },
    ],
    object: 'ports: [{port: 80, protocol: TCP, name: web}, {port: 443, protocol: TCP, name: https}]',
    managed: {
      a: ['.ports[port=80,protocol="TCP"]', '.ports[port=80,protocol="TCP"].name', '.ports[port=80,protocol="TCP"].port', '.ports[port=80,protocol="TCP"].protocol'],
      b: ['.ports[port=443,protocol="TCP"]', '.ports[port=443,protocol="TCP"].name', '.ports[port=443,protocol="TCP"].port', '.ports[port=443,protocol="TCP"].protocol'],
    },
  },
  {
    title: 'atomic lists and structs are replaced whole and owned by one applier',
    model: struct({ args: atomicList(), sel: struct({ a: scalar, b: scalar }, true) }),
    ops: [
      { manager: 'one', apply: 'args: [x, y]\nsel: {a: "1", b: "2"}' },
      { manager: 'two', apply: 'args: [z]', conflicts: ['one .args'] },
      { manager: 'two', apply: 'sel: {a: "1"}', force: true },
    ],
    object: 'args: [x, y]\nsel: {a: "1"}',
    managed: { one: ['.args'], two: ['.sel'] },
  },
  {
    title: 'granular → atomic: owners of fields inside own the atomic node and conflict on it',
    model: structModel(false),
    ops: [
      { manager: 'one', apply: 'struct: {numeric: 1}' },
      { schema: structModel(true) },
      { manager: 'two', apply: 'struct: {string: string}', conflicts: ['one .struct'] },
      { manager: 'two', apply: 'struct: {string: string}', force: true },
    ],
    object: 'struct: {string: string}',
    managed: { two: ['.struct'] },
  },
  {
    title: 'granular → atomic: a manager that owns nothing inside does not own the node',
    model: structModel(false),
    ops: [
      { manager: 'one', apply: 'struct: {numeric: 1}' },
      { manager: 'two', apply: 'struct: {numeric: 2}', force: true },
      { schema: structModel(true) },
      { manager: 'three', apply: 'struct: {string: string}', conflicts: ['two .struct'] },
    ],
    object: 'struct: {numeric: 2}',
    managed: { two: ['.struct.numeric'] },
  },
  {
    title: 'atomic → granular: the owner keeps the node only, its fields are free (the spec example)',
    model: structModel(true),
    ops: [
      { manager: 'one', apply: 'struct: {numeric: 1, string: a}' },
      { manager: 'two', apply: 'struct: {string: b}', conflicts: ['one .struct'] },
      { schema: structModel(false) },
      { manager: 'two', apply: 'struct: {string: b}' },
    ],
    object: 'struct: {numeric: 1, string: b}',
    managed: { one: ['.struct'], two: ['.struct.string'] },
  },
];

for (const c of cases) {
  test(c.title, (t) => {
    const { object, managed, problems } = run(c);
    t.deepEqual(problems, []);
    t.deepEqual(object, YAML.parse(c.object));
    t.deepEqual(managed, Object.fromEntries(Object.entries(c.managed).map(([m, p]) => [m, [...p].sort()])));
  });
}

// ---- the merge itself: item order (SMD's merge tests) ----

const ordering: [string, string, string][] = [
  ['[{key: a, id: 1}]', '[{key: a, id: 2}]', '[{key: a, id: 1}, {key: a, id: 2}]'],
  ['[{key: b, id: 2}]', '[{key: a, id: 1}, {key: b, id: 2}, {key: c, id: 3}]', '[{key: a, id: 1}, {key: b, id: 2}, {key: c, id: 3}]'],
  ['[{key: a, id: 1}, {key: b, id: 2}, {key: c, id: 3}]', '[{key: c, id: 3}, {key: b, id: 2}]', '[{key: a, id: 1}, {key: c, id: 3}, {key: b, id: 2}]'],
  ['[{key: a, id: 1}, {key: b, id: 2}, {key: c, id: 3}]', '[{key: c, id: 3}, {key: a, id: 1}]', '[{key: b, id: 2}, {key: c, id: 3}, {key: a, id: 1}]'],
];
const keyed = struct({ list: listMap(['key', 'id'], struct({ key: scalar, id: scalar, value: scalar })), set: set() });

for (const [l, r, out] of ordering) {
  test(`map list merge order: ${l} + ${r}`, (t) => {
    t.deepEqual(mergeObjects({ list: YAML.parse(l) }, { list: YAML.parse(r) }, keyed), { list: YAML.parse(out) });
  });
}

const setOrdering: [string[], string[], string[]][] = [
  [['c', 'a', 'g', 'f'], ['c', 'f', 'a', 'g'], ['c', 'f', 'a', 'g']],
  [['a', 'b', 'c', 'd'], ['d', 'e', 'f', 'a'], ['b', 'c', 'd', 'e', 'f', 'a']],
  [['a', 'b', 'b'], ['c'], ['a', 'b', 'b', 'c']],
  [['a', 'b', 'b'], ['b'], ['a', 'b']],
  [['a', 'a', 'b', 'b'], ['b', 'c', 'd'], ['a', 'a', 'b', 'c', 'd']],
  [['a', 'b', 'c'], [], ['a', 'b', 'c']],
];

for (const [l, r, out] of setOrdering) {
  test(`set merge order: [${l}] + [${r}]`, (t) => {
    t.deepEqual(mergeObjects({ set: l }, { set: r }, keyed), { set: out });
  });
}

test('merge shares what the configuration does not change, and returns the live object for a no-op', (t) => {
  const live = { list: [{ key: 'a', id: 1, value: 'x' }], set: ['a'], other: { deep: [1] } };
  t.is(mergeObjects(live, { list: [{ key: 'a', id: 1, value: 'x' }] }, keyed), live);
  const out = mergeObjects(live, { set: ['b'] }, keyed) as typeof live;
  t.deepEqual(out.set, ['a', 'b']);
  t.is(out.list, live.list);
  t.is(out.other, live.other);
  t.deepEqual(live.set, ['a'], 'the live object is not changed');
});

test('a field named __proto__ is merged as a field', (t) => {
  const model: MergeModel = { kind: 'deduced' };
  const out = mergeObjects(JSON.parse('{"a":1}'), JSON.parse('{"__proto__":{"x":1}}'), model);
  t.deepEqual(Object.keys(out), ['a', '__proto__']);
  t.is(Object.getPrototypeOf(out), Object.prototype);
});
