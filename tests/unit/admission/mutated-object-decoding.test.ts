import test from 'ava';
import { mutatedObjectDecoding } from '../../../admission/mutated-object-decoding.js';
import type { KubeObject, ResourceType } from '../../../core/contracts/resource-type.js';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';
import { namespaceGoType } from '../../../builtin/namespaces/namespace-go-type.js';

const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } };

function resource(kind: string, extra: Partial<ResourceType>): ResourceType {
  return {
    group: 'example.com',
    names: { plural: `${kind.toLowerCase()}s`, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
    scope: 'Namespaced',
    allowUnconditionalUpdate: false,
    verbs: [],
    versions: [{ name: 'v1', served: true, storage: true, schema }],
    ...extra,
  };
}

const widgets = mutatedObjectDecoding(resource('Widget', { definedBy: { crd: 'widgets.example.com' } }), 'v1');
const widget = (extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { color: 'red' }, ...extra });

test('a patched custom resource: its metadata decodes into ObjectMeta (nulls as Go leaves them), unknown fields are pruned', (t) => {
  const obj = widget({ metadata: { name: 'w', labels: { a: null }, bogus: 1 }, spec: { color: 'red', size: 2 }, '': 'abc' });
  t.is(widgets.patched(obj), undefined);
  t.deepEqual(obj, widget({ metadata: { name: 'w', labels: { a: '' } } }));
});

test("a patched object that names no kind, or whose metadata is not ObjectMeta, is the decoder's error", (t) => {
  t.is(widgets.patched({ apiVersion: 'example.com/v1', metadata: { name: 'w' } }), `Object 'Kind' is missing in '{"apiVersion":"example.com/v1","metadata":{"name":"w"}}'`);
  t.is(widgets.patched(widget({ metadata: 'w' })), 'json: cannot unmarshal string into Go value of type v1.ObjectMeta');
  t.is(widgets.patched(widget({ metadata: { name: 'w', labels: 5 } })), 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string');
});

test('an apply configuration is checked, not changed', (t) => {
  const obj = widget({ metadata: { name: 'w', labels: { a: null } }, extra: 1 });
  t.is(widgets.applied(obj), undefined);
  t.deepEqual(obj, widget({ metadata: { name: 'w', labels: { a: null } }, extra: 1 }));
  t.is(widgets.applied(widget({ metadata: { name: ['w'] } })), 'json: cannot unmarshal array into Go struct field ObjectMeta.name of type string');
});

test('a built-in kind decodes whole into its Go type; an unknown kind only needs a kind', (t) => {
  const namespaces = mutatedObjectDecoding(resource('Namespace', { group: '', goType: namespaceGoType, versions: [{ name: 'v1', served: true, storage: true }] }), 'v1');
  const ns = (spec: unknown): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, spec } as KubeObject);
  t.is(namespaces.patched(ns({ finalizers: ['kubernetes'] })), undefined);
  t.regex(namespaces.patched(ns({ finalizers: 'kubernetes' }))!, /^json: cannot unmarshal string into Go struct field NamespaceSpec\.spec\.finalizers of type \[\]v1\.FinalizerName$/);
  const unknown = mutatedObjectDecoding(undefined, 'v1');
  t.is(unknown.patched(widget({ metadata: 5 })), undefined);
  t.is(unknown.patched({ apiVersion: 'v1' }), `Object 'Kind' is missing in '{"apiVersion":"v1"}'`);
});
