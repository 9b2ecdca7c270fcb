/**
 * CRD schema admission through the CRD's own validation: which path the violations are reported under, and which
 * rules kube relaxes on update.
 */
import test from 'ava';
import { validateCrd } from '../../../../builtin/customresourcedefinitions/crd-validation.js';
import type { Crd } from '../../../../builtin/customresourcedefinitions/crd-types.js';

const good = { type: 'object', properties: { spec: { type: 'object' } } };
const bad = { type: 'object', properties: { spec: { properties: {} } } };

function crd(schemas: unknown[], subresources?: object): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: schemas.map((s, i) => ({
        name: `v${i + 1}`,
        served: true,
        storage: i === 0,
        schema: { openAPIV3Schema: s as never },
        ...(subresources ? { subresources } : {}),
      })),
    },
  };
}

const lines = (c: Crd, old?: Crd) => validateCrd(c, old).map((x) => `${x.field}: ${x.message}`);

test('a schema shared by all versions is reported once, under spec.validation (as kube lifts it)', (t) => {
  const expected = ['spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields'];
  t.deepEqual(lines(crd([bad])), expected);
  t.deepEqual(lines(crd([bad, structuredClone(bad)])), expected);
});

test('different schemas are reported per version', (t) => {
  t.deepEqual(lines(crd([good, bad])), ['spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields']);
});

test('the status subresource of any version applies to a shared schema', (t) => {
  t.deepEqual(lines(crd([{ type: 'object', minProperties: 1 }], { status: {} })).map((l) => l.replace(/Invalid value: .*: only/, 'Invalid value: …: only')), [
    'spec.validation.openAPIV3Schema: Invalid value: …: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
  ]);
});

test('an update keeps accepting what the stored CRD already broke (kube ratchets these rules), not more', (t) => {
  const list = (items: object) => ({ type: 'object', properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items } } });
  const looseItems = { type: 'object', properties: { k: { type: 'string' } } }; // k neither required nor defaulted
  const message = 'spec.validation.openAPIV3Schema.properties[l].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property';
  t.deepEqual(lines(crd([list(looseItems)])), [message]);
  t.deepEqual(lines(crd([list(looseItems)]), crd([list(looseItems)])), []);
  // structural rules are never relaxed
  t.deepEqual(lines(crd([bad]), crd([bad])), ['spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields']);
});
