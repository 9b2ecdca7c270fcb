import test from 'ava';
import { mergeModel } from '../../../../schemas/merge-strategy.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';
import { decodeFieldsV1, encodeFieldsV1 } from '../../../../core/ssa/fields-v1.js';
import { FieldSet } from '../../../../schemas/structured-merge/field-set.js';
import { pathString } from '../../../../schemas/structured-merge/path-element.js';
import { recordUpdate, serverSideApply, type FieldManagerContext } from '../../../../core/ssa/field-manager.js';

// fieldsV1 as kube-apiserver wrote them (responses and audit logs of real clusters), compact JSON.
const golden: Record<string, string> = {
  'Service created by kubectl (Update)':
    '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:internalTrafficPolicy":{},"f:ipFamilies":{},"f:ipFamilyPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}',
  'client-side apply annotation':
    '{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}',
  'Pod by kubectl-client-side-apply':
    '{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}',
  'Deployment by server-side apply':
    '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:creationTimestamp":{},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}',
  'owner reference applied by a controller (atomic item)':
    '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"c8f0aab2-b8bd-438f-ad50-043e65017963\\"}":{}}},"f:spec":{"f:selector":{},"f:strategy":{}}}',
  'Service ports applied by Argo CD, keys in numeric order':
    '{"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{},"f:protocol":{},"f:targetPort":{}},"k:{\\"port\\":443,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}',
  'finalizer set by Flux': '{"f:metadata":{"f:finalizers":{".":{},"v:\\"finalizers.fluxcd.io\\"":{}}}}',
  'HelmRelease by flux (Update)':
    '{"f:spec":{".":{},"f:chart":{".":{},"f:spec":{".":{},"f:chart":{},"f:reconcileStrategy":{},"f:sourceRef":{".":{},"f:kind":{},"f:name":{}},"f:version":{}}},"f:interval":{},"f:targetNamespace":{}}}',
  'custom resource by kubectl-create':
    '{"f:metadata":{"f:labels":{".":{},"f:app.kubernetes.io/created-by":{},"f:app.kubernetes.io/instance":{},"f:app.kubernetes.io/managed-by":{},"f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{}}},"f:spec":{".":{},"f:data":{".":{},"f:name":{},"f:path":{},"f:retrymax":{},"f:sha":{},"f:url":{}},"f:nodeSelector":{".":{},"f:kubernetes.io/os":{}}}}',
};

for (const [name, json] of Object.entries(golden)) {
  test(`decode → encode is byte-identical: ${name}`, (t) => {
    t.is(JSON.stringify(encodeFieldsV1(decodeFieldsV1(JSON.parse(json)))), json);
  });
}

test('decoding reads members, `.` and children', (t) => {
  const s = decodeFieldsV1(JSON.parse(golden['finalizer set by Flux']));
  t.deepEqual(s.paths().map(pathString), ['.metadata.finalizers', '.metadata.finalizers[="finalizers.fluxcd.io"]']);
});

test('a non-canonical fieldsV1 is written back canonically (key order, key fields, `.` first)', (t) => {
  const input = { 'f:spec': { 'f:b': {}, 'k:{"protocol":"TCP","port":80}': { 'f:x': {}, '.': {} }, '.': {}, 'f:a': null } };
  t.is(JSON.stringify(encodeFieldsV1(decodeFieldsV1(input))), '{"f:spec":{".":{},"f:a":{},"f:b":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:x":{}}}}');
});

test('unknown element types are dropped; malformed fieldsV1 fails to decode', (t) => {
  t.is(JSON.stringify(encodeFieldsV1(decodeFieldsV1({ 'f:a': {}, 'z:b': {} }))), '{"f:a":{}}');
  t.is(JSON.stringify(encodeFieldsV1(decodeFieldsV1({ 'f:a': { 'z:b': {} } }))), '{"f:a":{}}', 'a node with only unknown children is a member');
  t.true(decodeFieldsV1({}).isEmpty());
  t.true(decodeFieldsV1(null).isEmpty());
  t.throws(() => decodeFieldsV1({ 'f:a': 1 }));
  t.throws(() => decodeFieldsV1({ 'k:notjson': {} }));
  t.throws(() => decodeFieldsV1([]));
  t.is(JSON.stringify(encodeFieldsV1(FieldSet.EMPTY)), '{}');
});

// ---- what the engine writes, against what kube writes ----

const widgetSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { color: { type: 'string' }, replicas: { type: 'integer' } } },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
};

function ctx(schema: JSONSchemaProps, manager: string, extra: Partial<FieldManagerContext> = {}): FieldManagerContext {
  return { model: mergeModel(schema), manager, apiVersion: 'example.com/v1', kind: 'Widget', subresource: '', now: '2026-01-02T03:04:05Z', resetFields: [], ...extra };
}

const widget = () => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default', labels: { app: 'a' } }, spec: { color: 'red', replicas: 2 } });
const fieldsOf = (o: any, i = 0) => JSON.stringify(o.metadata.managedFields[i].fieldsV1);

test('first apply of a widget: leaves only, as kube writes an applier', (t) => {
  const out = serverSideApply(undefined, widget(), ctx(widgetSchema, 'kubectl'), false);
  t.is(fieldsOf(out), '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:color":{},"f:replicas":{}}}');
});

test('a widget created by an update: new maps are members too (`.`), metadata itself is not', (t) => {
  const out = recordUpdate(undefined, widget(), ctx(widgetSchema, 'kubectl-create'));
  t.is(fieldsOf(out), '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{".":{},"f:color":{},"f:replicas":{}}}');
});

test('a custom resource created by kubectl create writes what kube wrote for it', (t) => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          data: { type: 'object', properties: { name: { type: 'string' }, path: { type: 'string' }, retrymax: { type: 'integer' }, sha: { type: 'string' }, url: { type: 'string' } } },
          nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      status: { type: 'object' },
    },
  };
  const labels = Object.fromEntries(['created-by', 'instance', 'managed-by', 'name', 'part-of'].map((k) => [`app.kubernetes.io/${k}`, 'x']));
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'm', labels },
    spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, data: { retrymax: 3, url: 'u', name: 'n', path: '/data', sha: 's' } },
  };
  t.is(fieldsOf(recordUpdate(undefined, obj, ctx(schema, 'kubectl-create'))), golden['custom resource by kubectl-create']);
});

test('an owner reference is owned as a whole item', (t) => {
  const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u-1', controller: true }];
  const cfg = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', ownerReferences } };
  const out = serverSideApply(undefined, cfg, ctx(widgetSchema, 'ctrl'), false);
  t.is(fieldsOf(out), '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"u-1\\"}":{}}}}');
});
