/**
 * The merge model ApplyConfiguration mutations merge by (kube's type converter for the object's kind): the version's
 * OpenAPI schema with ObjectMeta's for metadata, compiled once per schema; undefined for schemaless kinds, which
 * merge by shape.
 */
import { servedVersion, type ResourceType } from '../../core/contracts/resource-type.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { withObjectMeta } from '../../schemas/object-meta-model.js';
import { compileSchema } from '../../schemas/structural-schema.js';

const models = new WeakMap<JSONSchemaProps, MergeModel>();

export function objectMergeModel(rt: ResourceType | undefined, version: string): MergeModel | undefined {
  const schema = rt && servedVersion(rt, version)?.schema;
  if (!schema) return undefined;
  let model = models.get(schema);
  if (!model) models.set(schema, (model = withObjectMeta(compileSchema(schema).mergeModel)));
  return model;
}
