import test from 'ava';
import { mergeSwagger } from '../../../../core/openapi/merge-swagger.js';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const get = (name: string) => ({ get: { responses: { '200': { schema: ref(name) } } } });

test('a definition equal to the front\'s is shared; a different one is renamed _v2 and the backend\'s references follow', (t) => {
  const dest = {
    paths: { '/api/v1/pods': get('Pod') },
    definitions: { Pod: { type: 'object' }, Meta: { type: 'object', properties: { name: { type: 'string' } } }, Widget_v2: { type: 'string' } },
  };
  const source = {
    paths: { '/apis/example.com/v1/widgets': get('Widget'), '/apis/example.com/v1/metas': get('Meta') },
    definitions: { Widget: { type: 'object', properties: { meta: ref('Meta') } }, Meta: { type: 'object', properties: { name: { type: 'string' } } } },
  };
  const before = structuredClone(source);
  mergeSwagger(dest, source);
  t.deepEqual(dest.definitions, {
    Pod: { type: 'object' },
    Meta: { type: 'object', properties: { name: { type: 'string' } } },
    Widget_v2: { type: 'string' },
    // Widget is free in dest: kept as it is
    Widget: { type: 'object', properties: { meta: ref('Meta') } },
  });
  t.deepEqual(source, before, 'the source is not changed');

  const other = { paths: { '/apis/other.com/v1/pods': get('Pod') }, definitions: { Pod: { type: 'object', description: 'another Pod' } } };
  mergeSwagger(dest, other);
  t.deepEqual(dest.definitions['Pod_v2' as keyof typeof dest.definitions], { type: 'object', description: 'another Pod' });
  t.deepEqual(dest.paths['/apis/other.com/v1/pods' as keyof typeof dest.paths], get('Pod_v2'));
  t.deepEqual(dest.definitions.Pod, { type: 'object' });
});

test('paths the front has stay the front\'s, and definitions only they used are left out', (t) => {
  const dest = { paths: { '/api/v1/pods': get('Pod') } as Record<string, unknown>, definitions: { Pod: { type: 'object' } } as Record<string, unknown> };
  const source = {
    paths: { '/api/v1/pods': get('OldPod'), '/apis/example.com/v1/widgets': get('Widget') },
    definitions: { OldPod: { type: 'object', properties: { spec: ref('OldSpec') } }, OldSpec: { type: 'object' }, Widget: { type: 'object', properties: { x: ref('Inner') } }, Inner: { type: 'string' } },
  };
  mergeSwagger(dest, source);
  t.deepEqual(dest.paths['/api/v1/pods'], get('Pod'));
  t.deepEqual(Object.keys(dest.definitions).sort(), ['Inner', 'Pod', 'Widget']);
});

test('a spec whose paths are all the front\'s adds nothing', (t) => {
  const dest = { paths: { '/api/v1/pods': get('Pod') } as Record<string, unknown>, definitions: {} as Record<string, unknown> };
  mergeSwagger(dest, { paths: { '/api/v1/pods': get('X') }, definitions: { X: {} } });
  t.deepEqual(dest.definitions, {});
});
