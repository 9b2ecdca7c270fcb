/**
 * Built-in kinds are decoded into kube's Go types before anything reads them: a value of the wrong JSON type is kube's
 * 400 naming the Go struct field and type, a patch whose result does not decode is kube's 422 on `patch`, and nulls in
 * lists become Go's zero values, which validation then refuses with 422.
 */
import test from 'ava';
import { expectStatus, suffix, useTestServer } from '../helpers/test-server.js';
import { VAP, VAPB } from '../helpers/vap.js';

const server = useTestServer({ widgetsCrd: true });
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const mergePatch = 'application/merge-patch+json';

function crd(group: string, openAPIV3Schema: unknown = { type: 'object' }, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `things.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'things', kind: 'Thing' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
      ...spec,
    },
  };
}

const cannotHandleCrd = (detail: string) =>
  `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal ${detail}`;
const schemaField = 'spec.versions.schema.openAPIV3Schema';

const wrongTypes: [string, Record<string, unknown>, string][] = [
  ['versions as an object', { versions: { v1: {} } }, 'object into Go struct field CustomResourceDefinitionSpec.spec.versions of type []v1.CustomResourceDefinitionVersion'],
  ['x-kubernetes-validations as a string', { 'x-kubernetes-validations': 'self.a' }, `string into Go struct field JSONSchemaProps.${schemaField}.x-kubernetes-validations of type v1.ValidationRules`],
  ['a numeric rule', { 'x-kubernetes-validations': [{ rule: 5 }] }, `number into Go struct field ValidationRule.${schemaField}.x-kubernetes-validations.rule of type string`],
  ['a list message', { 'x-kubernetes-validations': [{ rule: 'true', message: ['m'] }] }, `array into Go struct field ValidationRule.${schemaField}.x-kubernetes-validations.message of type string`],
  ['enum that is no list', { enum: 'a' }, `string into Go struct field JSONSchemaProps.${schemaField}.enum of type []v1.JSON`],
  ['properties as a string', { properties: 'a' }, `string into Go struct field JSONSchemaProps.${schemaField}.properties of type map[string]v1.JSONSchemaProps`],
  ['a fractional maxLength', { maxLength: 1.5 }, `number 1.5 into Go struct field JSONSchemaProps.${schemaField}.maxLength of type int64`],
  // JSONSchemaPropsOrArray decodes with its own decoder: the outer one reports the inner type at the outer field.
  ['a wrong type inside items', { type: 'array', items: { type: 5 } }, `number into Go struct field JSONSchemaProps.${schemaField}.items of type string`],
];

for (const [what, change, detail] of wrongTypes) {
  test(`a CRD with ${what} is kube's 400 decode error, and is not stored`, async (t) => {
    const group = `d${suffix()}.example.com`;
    const spec = 'versions' in change ? change : {};
    const schema = 'versions' in change ? undefined : { type: 'object', ...change };
    const res = await server.request('POST', crdsPath, { body: crd(group, schema, spec) });
    expectStatus(t, res, { code: 400, reason: 'BadRequest', message: cannotHandleCrd(detail) });
    expectStatus(t, await server.request('GET', `${crdsPath}/things.${group}`), { code: 404, reason: 'NotFound' });
  });
}

test('additionalProperties that is neither a schema nor a boolean is the error of its own decoder', async (t) => {
  const res = await server.request('POST', crdsPath, { body: crd(`d${suffix()}.example.com`, { type: 'object', additionalProperties: 'yes' }) });
  expectStatus(t, res, {
    code: 400,
    reason: 'BadRequest',
    message: 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: boolean or JSON schema expected',
  });
});

test('a null version decodes as a zero version, which validation refuses (422)', async (t) => {
  const group = `d${suffix()}.example.com`;
  const res = await server.request('POST', crdsPath, { body: crd(group, undefined, { versions: [null] }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.like(res.body.details.causes[0], { reason: 'FieldValueInvalid', field: 'spec.versions[0].name' }); // "" is no DNS-1035 label
  t.true(res.body.details.causes.some((c: { field: string; message: string }) => c.field === 'spec.versions[0].schema.openAPIV3Schema'));
  t.true(res.body.details.causes.some((c: { message: string }) => c.message === 'Invalid value: [""]: must have exactly one version marked as storage version'));
});

test('a null validation rule decodes as an empty rule, which validation refuses (422)', async (t) => {
  const group = `d${suffix()}.example.com`;
  const res = await server.request('POST', crdsPath, { body: crd(group, { type: 'object', 'x-kubernetes-validations': [null] }) });
  expectStatus(t, res, {
    code: 422,
    reason: 'Invalid',
    message: `CustomResourceDefinition.apiextensions.k8s.io "things.${group}" is invalid: spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
  });
});

test('a merge patch whose result does not decode is kube\'s 422 on "patch", and changes nothing', async (t) => {
  const group = `p${suffix()}.example.com`;
  const created = await server.request('POST', crdsPath, { body: crd(group) });
  t.is(created.status, 201, created.text);
  const path = `${crdsPath}/things.${group}`;
  // Once the CRD controller has written its status, nothing else changes it.
  const before = await server.waitFor(async () => {
    const res = await server.request('GET', path);
    return res.body.status?.conditions?.length ? res.body : undefined;
  });
  const res = await server.request('PATCH', path, { body: { spec: { versions: { v1: {} } } }, contentType: mergePatch });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  const detail = 'json: cannot unmarshal object into Go struct field CustomResourceDefinitionSpec.spec.versions of type []v1.CustomResourceDefinitionVersion';
  t.regex(res.body.message, /^ "" is invalid: patch: Invalid value: "\{.*\}": /);
  t.true(res.body.message.endsWith(`: ${detail}`));
  t.deepEqual(res.body.details, { causes: [{ reason: 'FieldValueInvalid', message: res.body.details.causes[0].message, field: 'patch' }] });
  t.true(res.body.details.causes[0].message.endsWith(detail));
  const after = await server.request('GET', path);
  t.is(after.body.metadata.resourceVersion, before.metadata.resourceVersion);
});

test('finalizers [null] in a merge patch decode as an empty finalizer name, refused with 422', async (t) => {
  const group = `p${suffix()}.example.com`;
  t.is((await server.request('POST', crdsPath, { body: crd(group) })).status, 201);
  const res = await server.request('PATCH', `${crdsPath}/things.${group}`, { body: { metadata: { finalizers: [null] } }, contentType: mergePatch });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.like(res.body.details.causes[0], { field: 'metadata.finalizers', message: 'Invalid value: "": name part must be non-empty' });

  const ns = `ns-${suffix()}`;
  t.is((await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
  const nsRes = await server.request('PATCH', `/api/v1/namespaces/${ns}`, { body: { metadata: { finalizers: [null] } }, contentType: mergePatch });
  expectStatus(t, nsRes, { code: 422, reason: 'Invalid' });
  t.like(nsRes.body.details.causes[0], { field: 'metadata.finalizers', message: 'Invalid value: "": name part must be non-empty' });
});

test('Namespaces, ValidatingAdmissionPolicies and their bindings are decoded into their Go types too', async (t) => {
  const nsRes = await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: `ns-${suffix()}` }, spec: { finalizers: 'kubernetes' } } });
  expectStatus(t, nsRes, {
    code: 400,
    reason: 'BadRequest',
    message: 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal string into Go struct field NamespaceSpec.spec.finalizers of type []v1.FinalizerName',
  });
  const labels = await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: `ns-${suffix()}`, labels: { a: 1 } } } });
  expectStatus(t, labels, {
    code: 400,
    reason: 'BadRequest',
    message: 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
  });
  const policy = await server.request('POST', VAP, {
    body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: `p-${suffix()}` }, spec: { validations: 'true' } },
  });
  expectStatus(t, policy, {
    code: 400,
    reason: 'BadRequest',
    message:
      'ValidatingAdmissionPolicy in version "v1" cannot be handled as a ValidatingAdmissionPolicy: json: cannot unmarshal string into Go struct field ValidatingAdmissionPolicySpec.spec.validations of type []v1.Validation',
  });
  const binding = await server.request('POST', VAPB, {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: `b-${suffix()}` },
      spec: { policyName: 'p', validationActions: 'Deny' },
    },
  });
  expectStatus(t, binding, {
    code: 400,
    reason: 'BadRequest',
    message:
      'ValidatingAdmissionPolicyBinding in version "v1" cannot be handled as a ValidatingAdmissionPolicyBinding: json: cannot unmarshal string into Go struct field ValidatingAdmissionPolicyBindingSpec.spec.validationActions of type []v1.ValidationAction',
  });
});

test("a custom resource's metadata is decoded into ObjectMeta: wrong types are a 400, null finalizers a 422", async (t) => {
  const widgets = '/apis/example.com/v1/namespaces/default/widgets';
  const widget = (metadata: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata, spec: {} });
  const labels = await server.request('POST', widgets, { body: widget({ name: `w-${suffix()}`, labels: { a: 1 } }) });
  expectStatus(t, labels, {
    code: 400,
    reason: 'BadRequest',
    message: 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
  });
  const name = `w-${suffix()}`;
  t.is((await server.request('POST', widgets, { body: widget({ name }) })).status, 201);
  const finalizers = await server.request('PATCH', `${widgets}/${name}`, { body: { metadata: { finalizers: [null] } }, contentType: mergePatch });
  expectStatus(t, finalizers, { code: 422, reason: 'Invalid' });
  t.like(finalizers.body.details.causes[0], { field: 'metadata.finalizers', message: 'Invalid value: "": name part must be non-empty' });
  const annotations = await server.request('PATCH', `${widgets}/${name}`, { body: { metadata: { annotations: ['a'] } }, contentType: mergePatch });
  expectStatus(t, annotations, { code: 422, reason: 'Invalid' });
  t.like(annotations.body.details.causes[0], { field: 'patch' });
  t.true(annotations.body.details.causes[0].message.endsWith(': json: cannot unmarshal array into Go struct field ObjectMeta.annotations of type map[string]string'));
});
