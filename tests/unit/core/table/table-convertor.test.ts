import test from 'ava';
import type { KubeObject, PrinterColumn } from '../../../../core/contracts/resource-type.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../../../core/contracts/table-types.js';
import { defaultTablePrinter } from '../../../../core/table/default-table-printer.js';
import { namespaceTablePrinter } from '../../../../builtin/namespaces/namespace-printer.js';
import { customResourceColumns } from '../../../../builtin/customresourcedefinitions/crd-printer-columns.js';
import { humanDuration } from '../../../../lib/go/human-duration.js';
import { toTable } from '../../../../core/table/table-convertor.js';

const now = new Date('2024-01-10T00:00:00Z');
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

test('humanDuration follows apimachinery HumanDuration', (t) => {
  const cases: [number, string][] = [
    [-2000, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [59_000, '59s'],
    [119_999, '119s'],
    [2 * minute, '2m'],
    [5 * minute + 30_000, '5m30s'],
    [9 * minute + 59_000, '9m59s'],
    [10 * minute + 59_000, '10m'],
    [179 * minute, '179m'],
    [3 * hour, '3h'],
    [7 * hour + 59 * minute, '7h59m'],
    [8 * hour + 30 * minute, '8h'],
    [47 * hour, '47h'],
    [48 * hour, '2d'],
    [7 * day + 23 * hour, '7d23h'],
    [8 * day + 5 * hour, '8d'],
    [729 * day, '729d'],
    [730 * day, '2y'],
    [735 * day, '2y5d'],
    [8 * 365 * day, '8y'],
    [3000 * day, '8y'],
  ];
  for (const [ms, text] of cases) t.is(humanDuration(ms), text, `${ms}ms`);
});

const widget: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'default', resourceVersion: '7', creationTimestamp: '2024-01-09T23:55:00Z', labels: { tier: 'web' } },
  spec: { replicas: 3, ratio: 0.5, paused: true, weight: 2.7, count: '3', items: [{ name: 'a' }, { name: 'b' }], selector: { b: 1, a: '<x>' }, nullable: null, big: 1234567.5 },
  status: { conditions: [{ type: 'Synced', status: 'False' }, { type: 'Ready', status: 'True' }], since: 'yesterday', never: '' },
};

const col = (name: string, type: string, jsonPath: string, extra: Partial<PrinterColumn> = {}): PrinterColumn => ({ name, type, jsonPath, ...extra });

test('custom resource columns render like apiextensions-apiserver', (t) => {
  const columns = [
    col('Replicas', 'integer', '.spec.replicas', { description: 'Desired replicas', priority: 1, format: 'int32' }),
    col('Ready', 'string', '.status.conditions[?(@.type=="Ready")].status'),
    col('Tier', 'string', '.metadata.labels.tier'),
    col('First', 'string', '.spec.items[0].name'),
    col('All', 'string', '.spec.items[*].name'),
    col('Missing', 'integer', '.spec.nope'),
    col('Age', 'date', '.metadata.creationTimestamp'),
    col('Ratio', 'number', '.spec.ratio'),
    col('Paused', 'boolean', '.spec.paused'),
    col('Weight', 'integer', '.spec.weight'),
    col('Count', 'integer', '.spec.count'),
    col('AsText', 'string', '.spec.replicas'),
    col('Selector', 'string', '.spec.selector'),
    col('Nullable', 'string', '.spec.nullable'),
    col('Big', 'string', '.spec.big'),
    col('Since', 'date', '.status.since'),
    col('Never', 'date', '.status.never'),
  ];
  const table = toTable([widget], columns, { includeObject: 'Metadata', listMeta: { resourceVersion: '10', continue: '', remainingItemCount: 0 }, now });
  t.is(table.kind, 'Table');
  t.is(table.apiVersion, 'meta.k8s.io/v1');
  t.deepEqual(table.metadata, { resourceVersion: '10', remainingItemCount: 0 });
  t.deepEqual(table.columnDefinitions.slice(0, 3), [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    { name: 'Replicas', type: 'integer', format: 'int32', description: 'Desired replicas', priority: 1 },
    {
      name: 'Ready',
      type: 'string',
      format: '',
      description: 'Custom resource definition column (in JSONPath format): .status.conditions[?(@.type=="Ready")].status',
      priority: 0,
    },
  ]);
  t.deepEqual(table.rows?.[0].cells, [
    'w1',
    3,
    'True',
    'web',
    'a',
    'a',
    null,
    '5m',
    0.5,
    true,
    2,
    null,
    '3',
    '{"a":"\\u003cx\\u003e","b":1}',
    '<no value>',
    '1.2345675e+06',
    '<invalid>',
    '<unknown>',
  ]);
  t.deepEqual(table.rows?.[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: widget.metadata });
});

test('custom resources without printer columns get NAME, AGE', (t) => {
  const table = toTable([widget], customResourceColumns(undefined), { includeObject: 'None', now });
  t.deepEqual(table.columnDefinitions.map((c) => [c.name, c.type, c.description]), [
    ['Name', 'string', NAME_DESCRIPTION],
    ['Age', 'date', CREATION_TIMESTAMP_DESCRIPTION],
  ]);
  t.deepEqual(table.rows, [{ cells: ['w1', '5m'], object: null }]);
  t.deepEqual(toTable([], customResourceColumns([]), { includeObject: 'Metadata', now }).rows, []);
});

test('default convertor: NAME, CREATED AT', (t) => {
  const crd: KubeObject = { metadata: { name: 'widgets.example.com', creationTimestamp: '2024-01-02T03:04:05.678Z' } };
  const table = toTable([crd, { metadata: { name: 'x' } }], undefined, { includeObject: 'Object', now });
  t.deepEqual(table.columnDefinitions, [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    { name: 'Created At', type: 'date', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ]);
  t.deepEqual(table.rows, [
    { cells: ['widgets.example.com', '2024-01-02T03:04:05Z'], object: crd },
    { cells: ['x', '0001-01-01T00:00:00Z'], object: { metadata: { name: 'x' } } },
  ]);
  t.deepEqual(table.metadata, {});
  t.is(toTable([], defaultTablePrinter, { includeObject: 'Metadata', now }).rows, null);
});

test('namespace printer: NAME, STATUS, AGE', (t) => {
  const ns: KubeObject = { metadata: { name: 'default', creationTimestamp: '2024-01-07T00:00:00Z' }, status: { phase: 'Active' } };
  const table = toTable([ns, { metadata: { name: 'new' } }], namespaceTablePrinter, { includeObject: 'Metadata', now });
  t.deepEqual(table.columnDefinitions.map((c) => c.name.toUpperCase()), ['NAME', 'STATUS', 'AGE']);
  t.deepEqual(table.columnDefinitions[2], { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 });
  t.deepEqual(table.rows?.map((r) => r.cells), [
    ['default', 'Active', '3d'],
    ['new', '', '<unknown>'],
  ]);
  t.deepEqual(table.rows?.[1].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'new', creationTimestamp: null } });
});

test('a v1beta1 Table gives its rows v1beta1 PartialObjectMetadata, as kube does', (t) => {
  const table = toTable([widget], customResourceColumns([]), { includeObject: 'Metadata', now, metaVersion: 'v1beta1' });
  t.is(table.apiVersion, 'meta.k8s.io/v1beta1');
  t.like(table.rows?.[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: { name: 'w1' } });
});
