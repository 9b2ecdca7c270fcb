/** How a CRD's schema shapes its custom resources: defaults, unknown/duplicate fields, ratcheting, /scale, deprecation. */
import test from 'ava';
import { installCrd, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const base = '/apis/example.com/v1/namespaces/default/gizmos';

const gizmosCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gizmos', kind: 'Gizmo' },
    versions: [
      {
        name: 'v1beta1',
        served: true,
        storage: false,
        deprecated: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
        },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer', minimum: 0, default: 1 },
                  size: { type: 'string', default: 'small' },
                  code: { type: 'string' },
                  tag: { type: 'string', maxLength: 3 },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

test.before(async () => {
  await installCrd(server, gizmosCrd);
});

const gizmo = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name }, spec });

test('defaults are filled in on create', async (t) => {
  const res = await server.request('POST', base, { body: gizmo('d1') });
  t.is(res.status, 201);
  t.deepEqual(res.body.spec, { replicas: 1, size: 'small' });
});

test('unknown fields: 400 under Strict, pruned with a Warning header under Warn', async (t) => {
  const strict = await server.request('POST', `${base}?fieldValidation=Strict`, { body: gizmo('u1', { bogus: 1 }) });
  t.is(strict.status, 400);
  t.is(strict.body.message, 'Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: unknown field "spec.bogus"');
  const warn = await server.request('POST', base, { body: gizmo('u2', { bogus: 1 }) });
  t.is(warn.status, 201);
  t.is(warn.headers['warning'], '299 - "unknown field \\"spec.bogus\\""');
  t.false('bogus' in warn.body.spec);
});

test('duplicate JSON fields are reported like unknown ones', async (t) => {
  const raw = '{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"dup"},"spec":{"replicas":2,"replicas":3}}';
  const strict = await server.request('POST', `${base}?fieldValidation=Strict`, { rawBody: raw });
  t.is(strict.status, 400);
  t.is(strict.body.message, 'Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: duplicate field "spec.replicas"');
  const ignore = await server.request('POST', `${base}?fieldValidation=Ignore`, { rawBody: raw });
  t.is(ignore.status, 201);
  t.is(ignore.headers['warning'], undefined);
  t.is(ignore.body.spec.replicas, 3);
});

test('an invalid value is 422; an update that leaves an already invalid value alone is not (ratcheting)', async (t) => {
  const bad = await server.request('POST', base, { body: gizmo('r1', { replicas: -1 }) });
  t.is(bad.status, 422);
  // The schema's error, then the scale subresource's own check of its replicas field (never ratcheted).
  t.is(
    bad.body.message,
    'Gizmo.example.com "r1" is invalid: [spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0, .spec.replicas: Invalid value: -1: should be a non-negative integer]',
  );
  // Store an object that is invalid under the v1 schema through the schemaless v1beta1 version.
  const legacy = await server.request('POST', '/apis/example.com/v1beta1/namespaces/default/gizmos', {
    body: { apiVersion: 'example.com/v1beta1', kind: 'Gizmo', metadata: { name: 'r2' }, spec: { tag: 'toolong' } },
  });
  t.is(legacy.status, 201);
  const untouched = await server.request('PATCH', `${base}/r2`, { body: { spec: { code: 'x' } }, contentType: 'application/merge-patch+json' });
  t.is(untouched.status, 200, untouched.text);
  const touched = await server.request('PATCH', `${base}/r2`, { body: { spec: { tag: 'longer' } }, contentType: 'application/merge-patch+json' });
  t.is(touched.status, 422);
  t.is(touched.body.message, 'Gizmo.example.com "r2" is invalid: spec.tag: Too long: may not be more than 3 bytes');
});

test('/scale reads and writes the replicas paths (autoscaling/v1 Scale)', async (t) => {
  await server.request('POST', base, { body: gizmo('s1', { replicas: 2 }) });
  const scale = await server.request('GET', `${base}/s1/scale`);
  t.is(scale.status, 200);
  t.like(scale.body, { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 's1', namespace: 'default' }, spec: { replicas: 2 }, status: { replicas: 0 } });
  const patched = await server.request('PATCH', `${base}/s1/scale`, { body: { spec: { replicas: 5 } }, contentType: 'application/merge-patch+json' });
  t.is(patched.status, 200);
  t.is(patched.body.spec.replicas, 5);
  const obj = await server.request('GET', `${base}/s1`);
  t.is(obj.body.spec.replicas, 5);
  t.is(obj.body.metadata.generation, 2);
  const negative = await server.request('PUT', `${base}/s1/scale`, { body: { ...scale.body, spec: { replicas: -3 } } });
  t.is(negative.status, 422);
  // The object written through /scale is validated as a whole: its schema, then kube's scale field check.
  t.is(
    negative.body.message,
    'Gizmo.example.com "s1" is invalid: [spec.replicas: Invalid value: -3: spec.replicas in body should be greater than or equal to 0, .spec.replicas: Invalid value: -3: should be a non-negative integer]',
  );
});

test('a deprecated version answers with a Warning header', async (t) => {
  const res = await server.request('GET', '/apis/example.com/v1beta1/namespaces/default/gizmos');
  t.is(res.status, 200);
  t.is(res.headers['warning'], '299 - "example.com/v1beta1 Gizmo is deprecated; use example.com/v1 Gizmo"');
  const current = await server.request('GET', base);
  t.is(current.headers['warning'], undefined);
});
