import type { Controller } from '../core/contracts/controller.js';
import type { Informers } from '../core/contracts/informer.js';
import type { KubeObject, ResourceType } from '../core/contracts/resource-type.js';

/**
 * A controller handing `onChange` every state of one resource's objects (keyed `namespace/name`) from the server's
 * shared informer: admission configuration read from storage, so every kapi instance on it sees the same. The server
 * starts serving once the first state is in.
 */
export function objectsFollower(
  informers: () => Informers,
  rt: ResourceType,
  onChange: (objects: ReadonlyMap<string, KubeObject>) => void,
): Controller {
  let unsubscribe: (() => void) | undefined;
  return {
    name: `follow-${rt.names.plural}`,
    resources: [{ group: rt.group, resource: rt.names.plural }], // disabled: no objects, none followed
    async start() {
      const informer = informers().forResource(rt);
      unsubscribe = informer.subscribe(() => onChange(informer.current()));
      await informer.synced();
      onChange(informer.current());
    },
    async stop() {
      unsubscribe?.();
    },
  };
}
