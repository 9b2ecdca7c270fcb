import test from 'ava';
import { embeddedResourceCauses } from '../../../../core/validation/embedded-resources.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        items: { type: 'array', items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
      },
    },
  },
};

test('an embedded resource needs apiVersion and kind, and valid metadata', (t) => {
  const causes = embeddedResourceCauses({ spec: { template: { metadata: { labels: { 'bad key!': 'x' } } } } }, schema);
  t.deepEqual(
    causes.map((c) => `${c.field}: ${c.message}`),
    [
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
      `spec.template.metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
  );
});

test('kind must be a DNS-1035 label in any case; apiVersion at most one slash', (t) => {
  const causes = embeddedResourceCauses({ spec: { items: [{ apiVersion: 'a/b/c', kind: '9Pod' }, { apiVersion: 'v1', kind: 'Pod' }] } }, schema);
  t.deepEqual(
    causes.map((c) => c.field),
    ['spec.items[0].apiVersion', 'spec.items[0].kind'],
  );
  t.is(causes[0].message, 'Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c');
  t.regex(causes[1].message!, /^Invalid value: "9Pod": may have mixed case, but should otherwise match: a DNS-1035 label/);
});

test('schemas without embedded resources are not walked', (t) => {
  t.deepEqual(embeddedResourceCauses({ spec: { template: {} } }, { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }), []);
});
