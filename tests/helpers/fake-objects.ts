import type { ObjectClients, ResourceClient } from '../../core/contracts/object-client.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';

/**
 * Object clients over a map of `resource/namespace/name` → object, reading only (`get`): for unit tests of code that
 * looks objects up through `Tokens.Objects`.
 */
export function fakeObjects(objects: Map<string, KubeObject>): ObjectClients {
  return {
    forResource<T extends KubeObject = KubeObject>(r: { group: string; resource: string } | { names: { plural: string } }): ResourceClient<T> {
      const plural = 'resource' in r ? r.resource : r.names.plural;
      const refuse = () => Promise.reject(new Error('fakeObjects only reads'));
      return {
        get: async (namespace, name) => objects.get(`${plural}/${namespace}/${name}`) as T | undefined,
        list: refuse,
        create: refuse,
        update: refuse,
        delete: refuse,
      };
    },
  };
}
