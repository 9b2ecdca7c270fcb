import test from 'ava';
import { parseFieldSelector } from '../../../../lib/k8s/fields/field-selector.js';
import { objectFieldSet } from '../../../../core/selectors/object-fields.js';

const widget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'ns1' },
  spec: { color: 'red', size: 3, enabled: false, owner: null, nested: { tag: 'x' } },
};

test('metadata fields and selectable fields by JSON path', (t) => {
  t.deepEqual(objectFieldSet(widget, ['.spec.color', '.spec.size', '.spec.enabled', '.spec.owner', '.spec.missing', '.spec.color.deep', '.spec.nested.tag']), {
    'metadata.name': 'w1',
    'metadata.namespace': 'ns1',
    'spec.color': 'red',
    'spec.size': '3',
    'spec.enabled': 'false',
    'spec.owner': '',
    'spec.missing': '',
    'spec.color.deep': '',
    'spec.nested.tag': 'x',
  });
});

test('cluster-scoped objects have an empty namespace', (t) => {
  t.deepEqual(objectFieldSet({ metadata: { name: 'n1' }, status: { phase: 'Active' } }, ['.status.phase']), {
    'metadata.name': 'n1',
    'metadata.namespace': '',
    'status.phase': 'Active',
  });
  t.deepEqual(objectFieldSet({}), { 'metadata.name': '', 'metadata.namespace': '' });
});

test('a field selector matches against the set', (t) => {
  const fields = objectFieldSet(widget, ['.spec.color', '.spec.enabled']);
  t.true(parseFieldSelector('metadata.name=w1,spec.color=red').matches(fields));
  t.true(parseFieldSelector('spec.enabled=false').matches(fields));
  t.false(parseFieldSelector('spec.color!=red').matches(fields));
});
