import test from 'ava';
import { ApiError } from '../../../../core/contracts/api-error.js';
import { customResourceSchemaCauses, decodeCustomResource } from '../../../../core/handlers/schema-stage.js';
import { validationStage } from '../../../../core/rest/validation-stage.js';
import type { WriteAttributes } from '../../../../core/rest/write-pipeline.js';
import type { KubeObject, ResourceType } from '../../../../core/contracts/resource-type.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['color'],
      properties: {
        color: { type: 'string' },
        replicas: { type: 'integer', minimum: 0, default: 1 },
        list: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string', enum: ['Ready'] } } },
  },
};

const widget = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'demo' },
  spec,
  ...extra,
});

const label = { kind: 'Widget', version: 'v1' };

function thrown(t: import('ava').ExecutionContext, fn: () => unknown): ApiError {
  const err = t.throws(fn);
  t.true(err instanceof ApiError);
  return err as ApiError;
}

test('Strict: unknown fields are a 400 with kube\'s strict decoding text', (t) => {
  const err = thrown(t, () => decodeCustomResource(widget({ color: 'blue', bogus: 1 }), schema, 'Strict', label));
  t.is(err.code, 400);
  t.is(err.status.reason, 'BadRequest');
  t.is(err.message, 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"');
  t.deepEqual(err.status.details, undefined);
});

test('Strict: several unknown fields, metadata first, the others sorted', (t) => {
  const obj = widget({ color: 'blue', zeta: 1, list: [{ name: 'a', extra: true }] }, { other: 1 });
  obj.metadata!.bogus = 'x';
  const err = thrown(t, () => decodeCustomResource(obj, schema, 'Strict', label));
  t.is(
    err.message,
    'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "metadata.bogus", unknown field "other", unknown field "spec.list[0].extra", unknown field "spec.zeta"',
  );
});

test('Strict without unknown fields decodes and defaults', (t) => {
  const obj = widget({ color: 'blue' });
  t.deepEqual(decodeCustomResource(obj, schema, 'Strict', label), { warnings: [] });
  t.deepEqual(obj.spec, { color: 'blue', replicas: 1 });
});

test('Warn: unknown fields are pruned, one warning each', (t) => {
  const obj = widget({ color: 'blue', bogus: 1, list: [{ name: 'a', x: 1 }] });
  t.deepEqual(decodeCustomResource(obj, schema, 'Warn', label), { warnings: ['unknown field "spec.bogus"', 'unknown field "spec.list[0].x"'] });
  t.deepEqual(obj.spec, { color: 'blue', list: [{ name: 'a' }], replicas: 1 });
});

test('Ignore: unknown fields are pruned silently', (t) => {
  const obj = widget({ color: 'blue', bogus: 1 });
  obj.metadata!.unknownMeta = true;
  t.deepEqual(decodeCustomResource(obj, schema, 'Ignore', label), { warnings: [] });
  t.deepEqual(obj.spec, { color: 'blue', replicas: 1 });
  t.deepEqual(obj.metadata, { name: 'w', namespace: 'demo' });
});

test('unknown fields inside ownerReferences and managedFields entries', (t) => {
  const obj = widget({ color: 'blue' });
  obj.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', color: 1 }];
  obj.metadata!.managedFields = [{ manager: 'm', operation: 'Update', fieldsV1: { 'f:spec': {} }, extra: 1 }];
  t.deepEqual(decodeCustomResource(obj, schema, 'Warn', label).warnings, [
    'unknown field "metadata.managedFields[0].extra"',
    'unknown field "metadata.ownerReferences[0].color"',
  ]);
  t.deepEqual(obj.metadata!.ownerReferences, [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }]);
});

test('without a schema only metadata is checked', (t) => {
  const obj = widget({ anything: { goes: 1 } });
  t.deepEqual(decodeCustomResource(obj, undefined, 'Strict', label), { warnings: [] });
  t.deepEqual(obj.spec, { anything: { goes: 1 } });
});

const rt: ResourceType = {
  group: 'example.com',
  names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
  scope: 'Namespaced',
  versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: true } }],
  allowUnconditionalUpdate: false,
  verbs: ['create', 'get', 'update', 'patch'],
  definedBy: { crd: 'widgets.example.com' },
};

const attrs = (object: KubeObject, subresource = '', resource: ResourceType = rt): WriteAttributes => ({
  operation: 'CREATE',
  rt: resource,
  version: 'v1',
  kind: { group: resource.group, version: 'v1', kind: resource.names.kind },
  resource: { group: resource.group, version: 'v1', resource: resource.names.plural },
  subresource,
  namespace: 'demo',
  name: 'w',
  object,
  userInfo: { username: 'admin', groups: [] },
  dryRun: false,
  options: {},
  warnings: [],
});

test('the validation stage refuses an invalid custom resource with kube\'s 422', (t) => {
  const err = thrown(t, () => validationStage.run(attrs(widget({ color: 'blue', replicas: -2 }))));
  t.is(err.code, 422);
  t.is(err.message, 'Widget.example.com "w" is invalid: spec.replicas: Invalid value: -2: spec.replicas in body should be greater than or equal to 0');
  t.deepEqual(err.status.details, {
    name: 'w',
    group: 'example.com',
    kind: 'Widget',
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -2: spec.replicas in body should be greater than or equal to 0', field: 'spec.replicas' }],
  });
  const two = thrown(t, () => validationStage.run(attrs(widget({ replicas: 'x' }))));
  t.is(
    two.message,
    'Widget.example.com "w" is invalid: [spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", spec.color: Required value]',
  );
});

test('the validation stage accepts valid objects and ignores built-ins; a write through /scale validates the whole object', (t) => {
  t.notThrows(() => validationStage.run(attrs(widget({ color: 'blue', replicas: 1 }))));
  t.notThrows(() => validationStage.run(attrs(widget({ replicas: -1 }), '', { ...rt, definedBy: undefined })));
  t.throws(() => validationStage.run(attrs(widget({ replicas: -1 }), 'scale')), { message: /spec\.replicas/ });
  t.deepEqual(customResourceSchemaCauses(attrs(widget({ color: 'blue' }), '', { ...rt, versions: [{ ...rt.versions[0], schema: undefined }] })), []);
});

test('through the status subresource only status is validated', (t) => {
  const obj = widget({ replicas: -1 }, { status: { phase: 'Broken' } });
  t.deepEqual(customResourceSchemaCauses(attrs(obj, 'status')), [
    { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Broken": supported values: "Ready"', field: 'status.phase' },
  ]);
  t.notThrows(() => validationStage.run(attrs(widget({ replicas: -1 }, { status: { phase: 'Ready' } }), 'status')));
  t.is(customResourceSchemaCauses(attrs(obj)).length, 3);
});
