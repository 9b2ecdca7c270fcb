import type { ResourceVersionDef } from '../contracts/resource-type.js';
import type { MergeModel } from '../../schemas/merge-strategy.js';
import { withObjectMeta } from '../../schemas/object-meta-model.js';
import { compileSchema } from '../../schemas/structural-schema.js';

const schemaless: MergeModel = { kind: 'deduced' };
const withMeta = new WeakMap<MergeModel, MergeModel>();

/** The merge model of the addressed version's schema (compiled once per schema); schemaless kinds merge by shape. */
export function versionModel(scope: { versionDef: ResourceVersionDef }): MergeModel {
  const schema = scope.versionDef.schema;
  return schema ? compileSchema(schema).mergeModel : schemaless;
}

/** The version's model with ObjectMeta's for metadata (strategic merge patch), cached per model. */
export function modelOf(scope: { versionDef: ResourceVersionDef }): MergeModel {
  const model = versionModel(scope);
  let whole = withMeta.get(model);
  if (!whole) withMeta.set(model, (whole = withObjectMeta(model)));
  return whole;
}
