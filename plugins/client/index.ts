export { ApiClient, type ApiRequest } from './api-client.js';
export {
  TypedClient,
  TypedStatusClient,
  type ApiObject,
  type ApplyOptions,
  type DeleteOptions,
  type ListOptions,
  type ObjectList,
  type PatchType,
  type ResourceDescription,
  type WatchOptions,
  type WriteOptions,
} from './typed-client.js';
export { TypedInformer, type InformerHandlers, type InformerOptions } from './typed-informer.js';
export type { WatchEvent } from './watch-events.js';
