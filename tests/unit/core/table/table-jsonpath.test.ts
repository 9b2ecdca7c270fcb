import test from 'ava';
import { compileJsonPath } from '../../../../core/table/jsonpath.js';

const obj = {
  metadata: { name: 'w1', labels: { tier: 'web', 'app.kubernetes.io/name': 'shop' } },
  spec: { replicas: 3, items: [{ name: 'a' }, { name: 'b', extra: 1 }, null], nothing: null },
  status: {
    conditions: [
      { type: 'Synced', status: 'False', reason: 'Pending' },
      { type: 'Ready', status: 'True' },
    ],
  },
};

const find = (expr: string): unknown[] => compileJsonPath(expr).find(obj);

test('fields, indexes and wildcards', (t) => {
  t.deepEqual(find('.spec.replicas'), [3]);
  t.deepEqual(find('.metadata.labels.tier'), ['web']);
  t.deepEqual(find('.spec.items[0].name'), ['a']);
  t.deepEqual(find('.spec.items[-2].name'), ['b']);
  t.deepEqual(find('.spec.items[*].name'), ['a', 'b']);
  t.deepEqual(find('.metadata.labels.*'), ['web', 'shop']);
  t.deepEqual(find('$.spec.nothing'), [null]);
  t.deepEqual(find(String.raw`.metadata.labels.app\.kubernetes\.io/name`), ['shop']);
  t.deepEqual(find(".metadata.labels['app.kubernetes.io/name']"), ['shop']);
});

test('filters', (t) => {
  t.deepEqual(find('.status.conditions[?(@.type=="Ready")].status'), ['True']);
  t.deepEqual(find(".status.conditions[?(@.type != 'Ready')].status"), ['False']);
  t.deepEqual(find('.status.conditions[?(@.reason)].type'), ['Synced']);
  t.deepEqual(find('.spec.items[?(@.extra>=1)].name'), ['b']);
  t.deepEqual(find('.status.conditions[?(@.type == "Ready" )].status'), ['True']);
});

test('missing keys and evaluation errors select nothing', (t) => {
  t.deepEqual(find('.spec.missing.deeper'), []);
  t.deepEqual(find('.spec.replicas.x'), []);
  t.deepEqual(find('.spec.items[5].name'), []);
  t.deepEqual(find('.spec.replicas[0]'), []);
  t.deepEqual(find('.status.conditions[?(@.type==1)].status'), []);
});

test('syntax errors throw; compiled paths are cached', (t) => {
  t.throws(() => compileJsonPath('spec.replicas'), { instanceOf: SyntaxError });
  t.throws(() => compileJsonPath('.spec.items[0'), { instanceOf: SyntaxError });
  t.throws(() => compileJsonPath('.spec.items[1:2]'), { instanceOf: SyntaxError });
  t.is(compileJsonPath('.spec.replicas'), compileJsonPath('.spec.replicas'));
});
