import test from 'ava';
import { compileSchema } from '../../../schemas/structural-schema.js';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';

test('the merge model follows the list, map and struct markers', (t) => {
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
            items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } },
          },
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          args: { type: 'array', items: { type: 'string' } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: { type: 'string' } } },
          extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          size: { 'x-kubernetes-int-or-string': true },
          containers: {
            type: 'array',
            'x-kubernetes-patch-strategy': 'merge',
            'x-kubernetes-patch-merge-key': 'name',
            items: { type: 'object', properties: { name: { type: 'string' } } },
          },
        },
      },
    },
  };
  const model = compileSchema(schema).mergeModel;
  if (model.kind !== 'struct' || model.fields.spec.kind !== 'struct') return t.fail('spec is not a struct');
  const f = model.fields.spec.fields;
  t.like(f.ports, { kind: 'list', listType: 'map', keys: ['port', 'protocol'], items: { kind: 'struct' } });
  t.like(f.tags, { kind: 'list', listType: 'set', keys: [], items: { kind: 'scalar' } });
  t.like(f.args, { kind: 'list', listType: 'atomic' });
  t.deepEqual(f.labels, { kind: 'map', atomic: false, values: { kind: 'scalar' } });
  t.like(f.selector, { kind: 'struct', atomic: true });
  t.deepEqual(f.extra, { kind: 'deduced' });
  t.deepEqual(f.size, { kind: 'deduced' });
  t.like(f.containers, { kind: 'list', listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'name' });
});
