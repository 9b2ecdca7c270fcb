/**
 * The object a mutation left (a webhook's or a policy's JSON patch, a policy's apply configuration), decoded into its
 * kind as kube decodes a mutated object: a patched object must name its kind; a built-in kind's object must fit its Go
 * type, a custom resource's metadata ObjectMeta. kube answers a 500 for a patched object it cannot decode (webhooks
 * do here too); a policy's mutation fails per its failurePolicy instead. Either way nothing malformed reaches
 * validation or storage. A patched custom resource also loses its unknown fields, as kube's decoder prunes them.
 */
import { schemaTyped, servedVersion, type KubeObject, type ResourceType } from '../core/contracts/resource-type.js';
import { goDecode, goDecodeError } from '../lib/go/json-decoding.js';
import { goJSON } from '../lib/go/go-values.js';
import { pruneUnknownObjectMetaFields } from '../schemas/object-meta-fields.js';
import { objectMetaGoType } from '../schemas/object-meta-go-type.js';
import { compileSchema } from '../schemas/structural-schema.js';

/** The decoding of the objects mutations leave for one kind; each answers the decoder's error, or undefined. */
export interface MutatedObjectDecoding {
  /** A patched object, a copy of its own: decoded in place (nulls as Go leaves them, unknown fields pruned). */
  patched(obj: KubeObject): string | undefined;
  /**
   * An apply configuration about to be merged into an object that decodes: checked, not changed. The merge keeps
   * the object's decoded values and takes the configuration's, so what it leaves decodes when the configuration does
   * — only the (small) configuration is decoded, not the whole merged object.
   */
  applied(config: KubeObject): string | undefined;
}

/** How the objects of `rt` in `version` decode; an unknown kind (no ResourceType) only needs a kind. */
export function mutatedObjectDecoding(rt: ResourceType | undefined, version: string): MutatedObjectDecoding {
  const byShape = rt !== undefined && schemaTyped(rt);
  const schema = byShape ? servedVersion(rt, version)?.schema : undefined;
  const goType = rt && !byShape ? rt.goType : undefined;
  const typeError = (obj: KubeObject, decode: typeof goDecodeError): string | undefined => {
    if (goType) return decode(obj, goType);
    // kube's CRD handler decodes a custom resource's metadata on its own, into ObjectMeta
    return byShape && obj.metadata !== undefined ? decode(obj.metadata, objectMetaGoType) : undefined;
  };
  return {
    patched(obj) {
      if (typeof obj.kind !== 'string' || !obj.kind) return `Object 'Kind' is missing in '${goJSON(obj)}'`;
      // unknown fields are dropped, as kube's decoder drops them
      const error = typeError(obj, (o, type) => goDecode(o, type).error);
      if (error || !schema) return error;
      pruneUnknownObjectMetaFields(obj.metadata);
      compileSchema(schema).prune(obj);
      return undefined;
    },
    applied: (config) => typeError(config, goDecodeError),
  };
}
