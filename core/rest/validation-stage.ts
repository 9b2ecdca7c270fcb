import type { WriteAttributes, WriteStage } from './write-pipeline.js';
import { appendCauses, errors, type StatusCause } from '../contracts/api-error.js';
import { validateObjectMetaCreate, validateObjectMetaUpdate } from '../validation/object-meta.js';
import { customResourceSchemaCauses } from '../handlers/schema-stage.js';

/**
 * Validation of every write: ObjectMeta rules, a custom resource's schema, and the resource's own rules. All
 * violations are reported together in one 422. A valid object then gets the strategy's warnings and is put in its
 * canonical form (kube's rest.BeforeCreate/BeforeUpdate end with WarningsOn… and Canonicalize), so validating
 * admission and storage see that form.
 */
export const validationStage: WriteStage = {
  name: 'validation',
  run(attrs: WriteAttributes): void {
    const { rt, object, oldObject } = attrs;
    const opts = { namespaced: rt.scope === 'Namespaced', nameValidator: rt.nameValidation ?? 'subdomain' } as const;
    const causes: StatusCause[] = oldObject
      ? validateObjectMetaUpdate(object.metadata ?? {}, oldObject.metadata ?? {}, opts)
      : validateObjectMetaCreate(object.metadata ?? {}, opts);
    appendCauses(causes, customResourceSchemaCauses(attrs));
    appendCauses(causes, rt.strategy?.validate?.(object, oldObject, attrs.subresource) ?? []);
    if (causes.length) {
      throw errors.invalid({ group: rt.group, resource: rt.names.plural, kind: rt.names.kind, name: object.metadata?.name ?? attrs.name }, causes);
    }
    const warnings = oldObject ? rt.strategy?.warningsOnUpdate?.(object, oldObject, attrs.subresource) : rt.strategy?.warningsOnCreate?.(object);
    if (warnings) attrs.warnings.push(...warnings);
    rt.strategy?.canonicalize?.(object);
  },
};
