import test from 'ava';
import type { MergeModel } from '../../../../schemas/merge-strategy.js';
import { mergeModel } from '../../../../schemas/merge-strategy.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';
import { compareObjects } from '../../../../core/ssa/compare.js';
import { encodeFieldsV1 } from '../../../../core/ssa/fields-v1.js';
import { FieldSet } from '../../../../schemas/structured-merge/field-set.js';
import { pathString } from '../../../../schemas/structured-merge/path-element.js';
import { toFieldSet } from '../../../../schemas/structured-merge/to-field-set.js';
import { objectModel } from '../../../../schemas/structured-merge/type-model.js';
import { TypedValueError } from '../../../../schemas/structured-merge/typed-errors.js';
import { STRIPPED_FIELDS } from '../../../../core/ssa/untracked-fields.js';

const paths = (s: FieldSet) => s.paths().map(pathString);
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', properties: { port: int, protocol: str, name: str } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
        args: { type: 'array', items: str },
        labels: { type: 'object', additionalProperties: str },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: str } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        size: { 'x-kubernetes-int-or-string': true },
        resources: { type: 'object', properties: { cpu: str } },
      },
    },
  },
};
const model = objectModel(mergeModel(schema));

test('leaves, list items with their fields, set items, atomic values, map keys', (t) => {
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', labels: { app: 'a' }, finalizers: ['f1'] },
    spec: {
      ports: [{ port: 80, protocol: 'TCP', name: 'http' }],
      tags: ['x', 'y'],
      args: ['--v'],
      labels: { team: 'x' },
      selector: { app: 'a' },
      extra: { deep: { x: 1 }, list: [1, 2] },
      size: '50%',
      resources: {},
    },
  };
  t.deepEqual(paths(toFieldSet(obj, model, true)), [
    '.apiVersion',
    '.kind',
    '.metadata.name',
    '.metadata.finalizers[="f1"]',
    '.metadata.labels.app',
    '.spec.args',
    '.spec.resources',
    '.spec.selector',
    '.spec.size',
    '.spec.extra.deep',
    '.spec.extra.list',
    '.spec.extra.deep.x',
    '.spec.labels.team',
    '.spec.ports[port=80,protocol="TCP"]',
    '.spec.ports[port=80,protocol="TCP"].name',
    '.spec.ports[port=80,protocol="TCP"].port',
    '.spec.ports[port=80,protocol="TCP"].protocol',
    '.spec.tags[="x"]',
    '.spec.tags[="y"]',
  ]);
});

test('null owns the field; an empty granular list owns nothing', (t) => {
  const obj = { spec: { resources: null, ports: [], tags: null, args: null } };
  t.deepEqual(paths(toFieldSet(obj, model, true)), ['.spec.args', '.spec.resources', '.spec.tags']);
});

test('validation errors as SMD words them, all at once', (t) => {
  const err = t.throws(
    () =>
      toFieldSet(
        {
          spec: {
            ports: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'TCP' }, { port: 1 }, { port: 2, protocol: 'UDP' }],
            tags: ['a', { b: 1 }],
            nope: 1,
            alsoNot: 2,
          },
          metadata: { unknown: 1 },
        },
        model,
        true,
      ),
    { instanceOf: TypedValueError },
  ) as TypedValueError;
  t.is(
    err.message,
    [
      'errors:',
      '  .spec.ports: duplicate entries for key [port=80,protocol="TCP"]',
      '  .spec.ports: element 2: associative list with keys has an element that omits key field "protocol" (and doesn\'t have default value)',
      '  .spec.tags: element 1: associative list without keys has an element that\'s a map type',
      '  .spec.nope: field not declared in schema',
      '  .metadata.unknown: field not declared in schema',
    ].join('\n'),
  );
  t.throws(() => toFieldSet({ spec: { ports: [null] } }, model, true), { message: '.spec.ports: element 0: associative list with keys may not have a null element' });
  t.throws(() => toFieldSet({ spec: { tags: [['x']] } }, model, true), { message: '.spec.tags: element 0: not supported: associative list with lists as elements' });
  t.throws(() => toFieldSet({ spec: { tags: [null] } }, model, true), { message: ".spec.tags: element 0: associative list without keys has an element that's an explicit null" });
  t.notThrows(() => toFieldSet({ spec: { nope: { x: 1 } } }, model), 'stored objects are walked leniently');
});

test('a schemaless (deduced) object: every map key is owned, lists atomically', (t) => {
  const s = toFieldSet({ spec: { a: { b: 1 }, l: [{ x: 1 }] } }, objectModel({ kind: 'deduced' }), true);
  t.is(JSON.stringify(encodeFieldsV1(s)), '{"f:spec":{".":{},"f:a":{".":{},"f:b":{}},"f:l":{}}}');
});

test('comparison: modified leaves, added and removed subtrees with their nodes', (t) => {
  const before = { spec: { ports: [{ port: 80, protocol: 'TCP', name: 'a' }], labels: { x: '1' }, size: 1 } };
  const after = { spec: { ports: [{ port: 80, protocol: 'TCP', name: 'b' }, { port: 81, protocol: 'TCP' }], size: 1, tags: ['t'] } };
  const c = compareObjects(before, after, model);
  t.deepEqual(paths(c.modified), ['.spec.ports[port=80,protocol="TCP"].name']);
  t.deepEqual(paths(c.added), [
    '.spec.tags',
    '.spec.ports[port=81,protocol="TCP"]',
    '.spec.ports[port=81,protocol="TCP"].port',
    '.spec.ports[port=81,protocol="TCP"].protocol',
    '.spec.tags[="t"]',
  ]);
  t.deepEqual(paths(c.removed), ['.spec.labels', '.spec.labels.x']);
});

// A Deployment as the apps/v1 OpenAPI marks it (the parts this object uses).
const deploymentModel = (): MergeModel => {
  const scalar: MergeModel = { kind: 'scalar' };
  const s = (fields: Record<string, MergeModel>, atomic = false): MergeModel => ({ kind: 'struct', atomic, fields });
  const labels: MergeModel = { kind: 'map', atomic: false, values: scalar };
  const container = s({ name: scalar, image: scalar, imagePullPolicy: scalar, resources: s({ limits: labels, requests: labels }), terminationMessagePath: scalar, terminationMessagePolicy: scalar });
  return s({
    spec: s({
      replicas: scalar,
      progressDeadlineSeconds: scalar,
      revisionHistoryLimit: scalar,
      selector: s({ matchLabels: labels }, true),
      strategy: s({ type: scalar, rollingUpdate: s({ maxSurge: { kind: 'deduced' }, maxUnavailable: { kind: 'deduced' } }) }),
      template: s({
        metadata: s({ creationTimestamp: scalar, labels }),
        spec: s({
          containers: { kind: 'list', listType: 'map', keys: ['name'], items: container },
          dnsPolicy: scalar,
          restartPolicy: scalar,
          schedulerName: scalar,
          securityContext: s({ runAsUser: scalar }),
          terminationGracePeriodSeconds: scalar,
        }),
      }),
    }),
  });
};

test('an applied Deployment owns what kube recorded for it (kubectl apply --server-side of a full object)', (t) => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx-0930', namespace: 'default', labels: { app: 'nginx-0930' } },
    spec: {
      progressDeadlineSeconds: 600,
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'nginx-0930' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'nginx-0930' } },
        spec: {
          containers: [{ image: 'nginx', imagePullPolicy: 'Always', name: 'nginx', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    },
  };
  const set = toFieldSet(deployment, objectModel(deploymentModel()), true).difference(STRIPPED_FIELDS);
  t.is(
    JSON.stringify(encodeFieldsV1(set)),
    '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:creationTimestamp":{},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}',
  );
});

test('applied configurations: an undeclared field inside an atomic list or struct is refused too, items named by index', (t) => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          rules: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'object', properties: { name: { type: 'string' } } } },
          ref: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { kind: { type: 'string' } } },
        },
      },
    },
  };
  const atomic = objectModel(mergeModel(schema));
  t.throws(() => toFieldSet({ spec: { rules: [{ name: 'a' }, { name: 'b', nmae: 'typo' }] } }, atomic, true), {
    instanceOf: TypedValueError,
    message: '.spec.rules[1].nmae: field not declared in schema',
  });
  t.throws(() => toFieldSet({ spec: { ref: { kind: 'K', knd: 'typo' } } }, atomic, true), { message: '.spec.ref.knd: field not declared in schema' });
  t.notThrows(() => toFieldSet({ spec: { rules: [{ name: 'a' }], ref: { kind: 'K' } } }, atomic, true));
  t.notThrows(() => toFieldSet({ spec: { rules: [{ nmae: 'typo' }] } }, atomic), 'stored objects are walked leniently');
});
