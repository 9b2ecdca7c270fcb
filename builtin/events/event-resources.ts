import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { coreEventGoType, eventsV1EventGoType } from './event-go-types.js';
import { coreEventApiVersion, eventConverter, eventsV1ApiVersion, eventsV1ToCore, canonicalCoreEvent } from './event-conversion.js';
import { eventTablePrinter } from './event-printer.js';
import { coreEventFieldAttributes, eventsV1EventFieldAttributes } from './event-selectable-fields.js';
import { validateEventCreate, validateEventUpdate } from './event-validation.js';
import type { CoreEvent } from './event-types.js';

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** An Event in either group as the core/v1 Event it is stored as. */
const asCore = (obj: KubeObject): CoreEvent => (obj.apiVersion === coreEventApiVersion ? obj : eventsV1ToCore(obj));

/** core/v1 Event (`ev`): the stored form of every Event, with kube's legacy validation. */
export function coreEventResource(): ResourceType {
  return {
    group: '',
    names: { plural: 'events', singular: 'event', kind: 'Event', listKind: 'EventList', shortNames: ['ev'] },
    scope: 'Namespaced',
    // kube's Event strategy: names are path segments (BeforeCreate's check), updates need no resourceVersion.
    nameValidation: 'path-segment',
    allowUnconditionalUpdate: true,
    // kube's strategy AllowCreateOnUpdate: a PUT to a missing name creates it.
    allowCreateOnUpdate: true,
    withoutGeneration: true,
    // kube's Event strategy: no propagation policy keeps an Event for the garbage collector
    garbageCollectionPolicy: 'Unsupported',
    goType: coreEventGoType,
    verbs,
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: builtinSchema('event.v1'),
        tablePrinter: eventTablePrinter(asCore),
        fieldSelectorAttributes: coreEventFieldAttributes,
      },
    ],
    // Written through events.k8s.io/v1 too: managedFields entries may be in that version.
    cohabitants: [{ apiVersion: eventsV1ApiVersion, schema: builtinSchema('event.events.v1'), converter: eventConverter }],
    strategy: {
      validate: (obj, old) => (old ? validateEventUpdate(obj, old, false) : validateEventCreate(obj, false)),
      canonicalize: (obj) => void canonicalCoreEvent(obj),
    },
  };
}

/**
 * events.k8s.io/v1 Event: the same objects as core/v1 Events, as in kube (one etcd key, converted field by field).
 * It is stored as the core/v1 resource (`storedAs`), so both share one storage prefix and one watch cache: an Event
 * written through either group is read, listed and watched through both, with one resourceVersion, and expires once.
 * Writes are validated on their core/v1 form with kube's strict rules for this API; field selectors take this API's
 * names and are matched on the stored core/v1 Event, as kube's field label conversion does.
 */
export function eventsV1EventResource(): ResourceType {
  return {
    group: 'events.k8s.io',
    names: { plural: 'events', singular: 'event', kind: 'Event', listKind: 'EventList', shortNames: ['ev'] },
    scope: 'Namespaced',
    allowUnconditionalUpdate: true,
    // kube's strategy AllowCreateOnUpdate: a PUT to a missing name creates it.
    allowCreateOnUpdate: true,
    withoutGeneration: true,
    garbageCollectionPolicy: 'Unsupported',
    goType: eventsV1EventGoType,
    verbs,
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: builtinSchema('event.events.v1'),
        tablePrinter: eventTablePrinter(asCore),
        fieldSelectorAttributes: eventsV1EventFieldAttributes,
      },
    ],
    storedAs: { group: '', plural: 'events', apiVersion: coreEventApiVersion, converter: eventConverter },
    cohabitants: [{ apiVersion: coreEventApiVersion, schema: builtinSchema('event.v1'), converter: eventConverter }],
    strategy: {
      validate: (obj, old) => (old ? validateEventUpdate(asCore(obj), asCore(old), true) : validateEventCreate(asCore(obj), true)),
    },
  };
}
