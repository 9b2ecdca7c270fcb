import test from 'ava';
import { mergeSwagger, type SerializedSwagger } from '../../../../core/openapi/merge-swagger.js';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const get = (name: string) => ({ get: { responses: { '200': { schema: ref(name) } } } });

/** A spec's paths and definitions serialized, as the front keeps its own (mergeSwagger's `dest`). */
const serialized = (spec: { paths: Record<string, unknown>; definitions: Record<string, unknown> }): SerializedSwagger => ({
  paths: new Map(Object.entries(spec.paths).map(([k, v]) => [k, JSON.stringify(v)])),
  definitions: new Map(Object.entries(spec.definitions).map(([k, v]) => [k, JSON.stringify(v)])),
});
/** The serialized values parsed again, by key. */
const parsed = (entries: Map<string, string>): Record<string, any> => Object.fromEntries([...entries].map(([k, v]) => [k, JSON.parse(v)]));

test('a definition equal to the front\'s is shared; a different one is renamed _v2 and the backend\'s references follow', (t) => {
  const dest = serialized({
    paths: { '/api/v1/pods': get('Pod') },
    definitions: { Pod: { type: 'object' }, Meta: { type: 'object', properties: { name: { type: 'string' } } }, Widget_v2: { type: 'string' } },
  });
  const source = {
    paths: { '/apis/example.com/v1/widgets': get('Widget'), '/apis/example.com/v1/metas': get('Meta') },
    definitions: { Widget: { type: 'object', properties: { meta: ref('Meta') } }, Meta: { type: 'object', properties: { name: { type: 'string' } } } },
  };
  const before = structuredClone(source);
  mergeSwagger(dest, source);
  t.deepEqual(parsed(dest.definitions), {
    Pod: { type: 'object' },
    Meta: { type: 'object', properties: { name: { type: 'string' } } },
    Widget_v2: { type: 'string' },
    // Widget is free in dest: kept as it is
    Widget: { type: 'object', properties: { meta: ref('Meta') } },
  });
  t.deepEqual(source, before, 'the source is not changed');

  const other = { paths: { '/apis/other.com/v1/pods': get('Pod') }, definitions: { Pod: { type: 'object', description: 'another Pod' } } };
  mergeSwagger(dest, other);
  t.deepEqual(parsed(dest.definitions).Pod_v2, { type: 'object', description: 'another Pod' });
  t.deepEqual(parsed(dest.paths)['/apis/other.com/v1/pods'], get('Pod_v2'));
  t.deepEqual(parsed(dest.definitions).Pod, { type: 'object' });
});

test('paths the front has stay the front\'s, and definitions only they used are left out', (t) => {
  const dest = serialized({ paths: { '/api/v1/pods': get('Pod') }, definitions: { Pod: { type: 'object' } } });
  const source = {
    paths: { '/api/v1/pods': get('OldPod'), '/apis/example.com/v1/widgets': get('Widget') },
    definitions: { OldPod: { type: 'object', properties: { spec: ref('OldSpec') } }, OldSpec: { type: 'object' }, Widget: { type: 'object', properties: { x: ref('Inner') } }, Inner: { type: 'string' } },
  };
  mergeSwagger(dest, source);
  t.deepEqual(parsed(dest.paths)['/api/v1/pods'], get('Pod'));
  t.deepEqual([...dest.definitions.keys()].sort(), ['Inner', 'Pod', 'Widget']);
});

test('a spec whose paths are all the front\'s adds nothing', (t) => {
  const dest = serialized({ paths: { '/api/v1/pods': get('Pod') }, definitions: {} });
  mergeSwagger(dest, { paths: { '/api/v1/pods': get('X') }, definitions: { X: {} } });
  t.deepEqual(parsed(dest.definitions), {});
});
